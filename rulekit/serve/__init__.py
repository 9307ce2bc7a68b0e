"""`rulekit serve`: a designer plays a seat against the bots in a local web page (docs/serve.md).

The page is plain HTML with a small script (rulekit/serve/static), served by Starlette on uvicorn; the game runs
in a thread of the server (rulekit.serve.session) and the page shows only the human seat's observation
(rulekit.serve.view). Needs the `serve` extra: pip install -e '.[serve]'.
"""

from __future__ import annotations

from collections.abc import Callable

from rulekit.model import Content

LOCAL = ("127.0.0.1", "localhost", "::1")


def seat_names(value: str) -> list[str]:
    """`--seats` as one name per seat: human or an agent; ValueError in plain words."""
    from rulekit.agents import agent_names

    names = [a.strip() for a in value.split(",") if a.strip()]
    if not 2 <= len(names) <= 4:
        raise ValueError(f"{len(names)} seats named: a table has 2 to 4, e.g. human,greedy,greedy,greedy")
    known = ["human", *agent_names()]
    for name in names:
        if name not in known:
            raise ValueError(f"unknown seat '{name}' (known: {', '.join(known)})")
    return names


def serve(content: Content, content_dir: str, seats: list[str], seed: int, pause: float, host: str, port: int,
          replay: str | None, save_dir: str, echo: Callable[[str], None]) -> None:
    """Start the server and keep it running until Ctrl-C; `echo` prints a line for the user."""
    import uvicorn

    from rulekit.serve.app import make_app
    from rulekit.serve.replay import start_replay
    from rulekit.serve.session import Options, Session

    options = Options(content_dir, seats, seed, pause, save_dir, replay)
    session = Session(options, content)
    if replay is not None:
        start_replay(session, replay)
    else:
        session.start()
    app = make_app(session, watch=replay is None)
    shown = f"[{host}]" if ":" in host else host
    echo(f"rulekit serve: http://{shown}:{port}/  (Ctrl-C 停止 to stop)")
    if host in LOCAL:
        echo(f"只在本机可访问 · listening on this machine only ({host}); --host 0.0.0.0 opens it to the network")
    else:
        echo(f"注意：网络上的其他电脑也能访问 · listening on {host}: other machines on the network can open this page "
             "and answer for the human seat")
    if replay is None:
        echo(f"保存卡牌文件即可重新载入 · watching {content_dir}: save a card and the page offers the new content")
    uvicorn.run(app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=2)

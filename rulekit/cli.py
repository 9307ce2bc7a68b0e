"""The `rulekit` command line: thin click commands that call the stages and render results."""

from __future__ import annotations

import click

from rulekit import __version__

from rulekit.lint.command import lint, rule
from rulekit.playtest.cli import playtest
from rulekit.playtest.compare_cli import compare
from rulekit.playtest.tune_cli import tune
from rulekit.playtest.value_cli import value
from rulekit.console import SEED, Group, agents_or_usage_error, echo, load_or_exit
from rulekit.provenance import agent_code, engine_code
from rulekit.scenarios.command import test_command


def _version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    """The version, and which build runs: pure Python, or compiled with mypyc (and which modules)."""
    if not value or ctx.resilient_parsing:
        return
    from rulekit import build_info

    click.echo(f"rulekit, version {__version__}, {build_info.describe()}")
    ctx.exit()


@click.group(cls=Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_version,
              help="显示版本和构建（纯 Python 或编译）并退出 / Show the version and the build (pure Python or "
                   "compiled) and exit.")
def main() -> None:
    """rulekit — 以数据编写、检查、测试和试玩《瘟疫到来》的卡牌 / write, check, test and playtest 瘟疫到来 cards as data."""


# Each command lives with its stage; they register here.
for command in (lint, rule, test_command, playtest, value, compare, tune):
    main.add_command(command)


@main.command()
@click.option("--seed", type=SEED, default=1, show_default=True,
              help=f"对局种子（0 到 {SEED.hi:,}）：同一种子，同一局 / The game's seed, 0 to {SEED.hi:,}: same seed, "
                   "same game.")
@click.option("--players", type=click.IntRange(2, 4), default=None,
              help="人数 2、3 或 4（默认见 rules.yaml） / 2, 3 or 4 players (default: rules.yaml).")
@click.option("--agents", default="greedy", show_default=True,
              help="所有座位一个代理，或每个座位一个：greedy,random,default / "
                   "One agent for every seat, or one per seat: greedy,random,default.")
@click.option("--content", "content_dir", default="content", show_default=True,
              type=click.Path(exists=True, file_okay=False), help="内容文件夹 / The content folder.")
@click.option("--log", "log_file", type=click.Path(dir_okay=False, writable=True),
              help="把每个决定和变化写成 JSON 行 / Write every decision and change as JSON lines.")
@click.option("--include-tbd", is_flag=True,
              help="把标为 tbd 的牌放进牌堆（作为无效果的牌） / Put cards marked tbd in the decks (as cards with no effect).")
@click.option("--only-designed", is_flag=True,
              help="牌堆中不放提议中的牌 / Leave proposed cards out of the decks.")
@click.option("-v", "--verbose", is_flag=True,
              help="同时显示每个触发的处理器、触发器、反应、修正和连击及其改变 / Also show every handler, trigger, "
                   "reaction, modifier and combo that fired, and what it changed.")
@click.option("--evaluator", type=click.Choice(["compiled", "reference"]), default="compiled", hidden=True,
              help="效果的执行方式（检查引擎用） / How effects run: compiled, or the reference walker (to check the engine).")
def play(seed, players, agents, content_dir, log_file, include_tbd, only_designed, verbose, evaluator):
    """打一整局并逐回合打印经过 / Play one whole game and print what happened, round by round."""
    from rulekit import play as P

    if log_file:
        try:
            open(log_file, "w", encoding="utf-8").close()
        except OSError as err:
            raise click.BadParameter(f"cannot write {log_file}: {err.strerror}", param_hint="--log") from None
    content = load_or_exit(content_dir, include_tbd, only_designed)
    players = players or int(content.rules.get("players", 4))
    names = agents_or_usage_error(agents, players)
    header = {"e": "header", "format": P.LOG_FORMAT, "rulekit": __version__, "engine_code": engine_code(),
              "agent_code": agent_code(),
              "seed": seed, "players": players, "agents": names, "content": str(content_dir),
              "fingerprint": content.fingerprint, "include_tbd": include_tbd,
              "only_designed": only_designed}
    played = P.play_game(content, seed, names, players, header=header, evaluator=evaluator, verbose=verbose)
    game = played.game
    echo(f"瘟疫到来 The Plague Arrives — seed {seed}, {players} players, agents {','.join(names)}")
    for line in P.account(game, played.log):
        echo(line)
    echo("")
    echo("── 终局 Final " + "─" * 44)
    for line in P.board_picture(game):
        echo(line)
    echo("")
    for line in P.status_table(game):
        echo(line)
    echo("")
    if played.error is not None:
        echo(f"The game stopped: {played.error}", err=True)
    else:
        st = game.state
        echo(f"结束 Ended after round {st.round}: {P.END_WORDS.get(st.end_reason, st.end_reason)}.")
        echo("排名 Ranking:")
        for line in P.ranking(game):
            echo(line)
    if log_file:
        P.write_log(log_file, played.log)
        echo(f"Log written to {log_file} ({len(played.log)} lines); `rulekit replay {log_file}` re-runs it.")
    if played.error is not None:
        raise SystemExit(1)


@main.command()
@click.option("--stdio", is_flag=True, help="经标准输入输出通信（默认，也是唯一方式） / Talk over stdin and stdout (the "
              "default, and the only way).")
def lsp(stdio):
    """编辑器用的语言服务器（经标准输入输出） / The language server for editors, over stdin and stdout.

    \b
    诊断、悬停说明、补全、跳转到卡牌定义、文档大纲、效果文本着色和快速修复；
    见 docs/editor.md。需要 lsp 附加组件：pip install 'rulekit[lsp]'。
    Diagnostics, hover, completion, go to a card's definition, document symbols, effect
    colouring and quick fixes; see docs/editor.md. Needs the lsp extra: pip install 'rulekit[lsp]'.
    """
    try:
        from rulekit.lsp.server import main as serve
    except ImportError as err:
        echo(f"rulekit lsp needs pygls: pip install 'rulekit[lsp]' ({err})", err=True)
        raise SystemExit(2) from None
    serve()


@main.command()
@click.argument("log_file", type=click.Path(exists=True, dir_okay=False))
@click.option("--content", "content_dir", default=None, type=click.Path(exists=True, file_okay=False),
              help="内容文件夹（默认为记录中的文件夹，须含 rules.yaml） / The content folder the game was played "
                   "with (default: the folder the log names, when it holds rules.yaml).")
def replay(log_file, content_dir):
    """重放一局记录并确认完全一致 / Re-run a logged game from its decisions and confirm it reproduces exactly."""
    from rulekit import play as P

    try:
        with P.LogReader(log_file) as log:
            head = log.header
            content_dir = P.replay_content(log_file, head, content_dir)
            content = load_or_exit(content_dir, head["include_tbd"], head["only_designed"])
            if content.fingerprint != head["fingerprint"]:
                echo(f"{log_file}:1:1: the content in {content_dir} is not the content this game was played "
                     "with (its fingerprint differs: a card or a rule has changed since); replay it with that "
                     "content, --content DIR", err=True)
                raise SystemExit(1)
            played = P.replay_game(content, log)
    except P.BadLog as err:
        echo(str(err), err=True)
        raise SystemExit(1) from None
    except P.NotReproduced as err:
        echo(f"{log_file}:{err.line}: the game does not reproduce: {err}{P.code_note(head)}", err=True)
        raise SystemExit(1) from None
    decisions = sum(1 for r in played.log if r["e"] == "ask")
    echo(f"{log_file}: reproduced exactly ({len(played.log)} lines, {decisions} decisions, "
         f"final scores {[p.score for p in played.game.state.seats]}).{P.code_note(head)}")


@main.command()
@click.argument("content_dir", default="content", required=False, type=click.Path(exists=True, file_okay=False))
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True, help="端口 / The port.")
@click.option("--seats", default="human,greedy,greedy,greedy", show_default=True,
              help="每个座位一个：human 或代理名 / One per seat: human, or an agent (greedy, random, default).")
@click.option("--seed", type=SEED, default=1, show_default=True, help="对局种子 / The game's seed.")
@click.option("--pause", type=click.FloatRange(0, 10), default=0.5, show_default=True,
              help="机器人每次回答前的停顿（秒） / Seconds a bot waits before each answer, so a person can follow.")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="监听地址（默认只在本机） / The address to listen on (default: this machine only).")
@click.option("--replay", "replay_file", type=click.Path(exists=True, dir_okay=False),
              help="逐步打开一局记录 / Open a logged game (rulekit play --log) step by step.")
@click.option("--save-dir", default=".", show_default=True, type=click.Path(file_okay=False),
              help="保存记录和场景的文件夹 / Where the page's save buttons write logs and scenarios.")
def serve(content_dir, port, seats, seed, pause, host, replay_file, save_dir):
    """在本地网页中与机器人对局，保存卡牌即重新载入 / Play a seat against the bots in a local web page; saved cards reload."""
    try:
        import rulekit.serve as S
        import starlette  # noqa: F401 - only to say what is missing
        import uvicorn  # noqa: F401
        import watchfiles  # noqa: F401
    except ImportError as err:
        echo(f"rulekit serve needs {err.name}: pip install -e '.[serve]' / 需要安装 serve 附加包", err=True)
        raise SystemExit(1) from None
    try:
        names = S.seat_names(seats)
    except ValueError as err:
        raise click.BadParameter(str(err), param_hint="--seats") from None
    content = load_or_exit(content_dir)
    if replay_file is not None:
        from rulekit import play as P

        try:
            with P.LogReader(replay_file) as log:
                head = log.header
        except P.BadLog as err:
            echo(str(err), err=True)
            raise SystemExit(1) from None
        if head["fingerprint"] != content.fingerprint:
            echo(f"{replay_file}:1:1: the content in {content_dir} is not the content this game was played with "
                 "(its fingerprint differs); name that folder: rulekit serve DIR --replay FILE", err=True)
            raise SystemExit(1)
    elif names.count("human") != 1:
        raise click.BadParameter(f"name exactly one human seat (not {names.count('human')}), e.g. "
                                 "human,greedy,greedy,greedy", param_hint="--seats")
    S.serve(content, content_dir, names, seed, pause, host, port, replay_file, save_dir, echo)

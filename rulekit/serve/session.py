"""One served game: the game runs in its own thread, the human seat is one more chooser, and the page reads what
the session last published.

The human seat's chooser publishes the page (rulekit.serve.view, from the observation it is handed) and waits
for the page's answer; every bot seat's chooser is the agent itself, paced by a pause a person can set. Answers
come from the page's threads through `answer`, which refuses a stale question or an index that is no option.
Nothing the page receives is read from the live game: view.py builds it from the human seat's observation.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import rulekit
from rulekit import play as P
from rulekit.agents import make_agent
from rulekit.content.loader import load_content
from rulekit.core.errors import EffectError
from rulekit.core.questions import Observation, Question
from rulekit.engine import make_game
from rulekit.language.diagnostics import ContentError, concise
from rulekit.model import Content
from rulekit.provenance import agent_code, engine_code
from rulekit.serve import view

HUMAN = "human"


class Stopped(Exception):
    """The game was stopped: a restart, or the server closing."""


def _json(v: Any) -> Any:
    return [_json(x) for x in v] if isinstance(v, tuple) else v


@dataclass
class Options:
    """What `rulekit serve` was started with."""

    content_dir: str
    seats: list[str]
    seed: int
    pause: float = 0.5
    save_dir: str = "."
    replay: str | None = None
    human: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        humans = [s for s, name in enumerate(self.seats) if name == HUMAN]
        if self.replay is None and len(humans) != 1:
            raise ValueError(f"--seats names {len(humans)} human seats; name exactly one, e.g. human,greedy,greedy,greedy "
                             "/ --seats 须恰好有一个 human 座位")
        self.human = humans[0] if humans else 0


class HumanSeat:
    """The human seat's chooser: the page answers. After a reload it first gives the answers of the game it
    continues (`script`), as long as each is still an answer to the question asked."""

    name = HUMAN

    def __init__(self, session: Session, script: Sequence[Any] = ()):
        self.session = session
        self.script = list(script)
        self.replayed = 0

    def choose(self, obs: Observation, q: Question) -> int:
        if self.script:
            wanted = self.script.pop(0)
            for k, option in enumerate(q.options):
                if _json(option) == wanted:
                    self.replayed += 1
                    self.session.answers.append(wanted)
                    return k
            self.session.notice = (f"新内容在第 {self.replayed + 1} 个回答处改变了对局，从这里继续 · the new content "
                                   f"changed the game at your answer {self.replayed + 1}: you go on from there")
            self.script = []
        k = self.session.ask_human(obs, q)
        self.session.answers.append(_json(q.options[k]))
        return k


class PacedBot:
    """A bot seat: its agent answers, after the session's pause (none while a reloaded game catches up)."""

    def __init__(self, session: Session, agent: Any):
        self.session = session
        self.agent = agent
        self.name = agent.name

    def choose(self, obs: Observation, q: Question) -> int:
        self.session.bot_turn(q)
        return self.agent.choose(obs, q)


class Session:
    """The served game and what the page last saw of it; one lock guards everything the page's threads read."""

    def __init__(self, options: Options, content: Content):
        self.options = options
        self.content = content
        self.cond = threading.Condition()
        self.version = 0
        self.data: dict[str, Any] = {}
        self.lines: list[str] = []
        self.qid = 0
        self.asked: Question | None = None
        self.reply: int | None = None
        self.answers: list[Any] = []
        self.lint: list[str] = []
        self.offer: dict[str, Any] | None = None
        self.notice = ""
        self.status = "starting"
        self.stopping = False
        self.closing = False           # the server is shutting down: waiting pages are answered at once
        self.pause = options.pause
        self.thread: threading.Thread | None = None
        self.game: Any = None
        self.log: list[dict[str, Any]] = []
        self.public: view.PublicLog | None = None
        self.fed = 0
        self.human: HumanSeat | None = None
        self.replay: Any = None        # rulekit.serve.replay.Stepper in replay mode
        self.quiet = False             # the game thread is waiting (for the human, or a bot's pause): the table is still
        self._new_content = content

    # ---- the game thread ------------------------------------------------------------------------------------
    def header(self) -> dict[str, Any]:
        o = self.options
        return {"e": "header", "format": P.LOG_FORMAT, "rulekit": rulekit.__version__, "engine_code": engine_code(),
                "agent_code": agent_code(), "seed": o.seed, "players": len(o.seats), "agents": list(o.seats),
                "content": o.content_dir, "fingerprint": self.content.fingerprint, "include_tbd": False,
                "only_designed": False}

    def start(self, script: Sequence[Any] = ()) -> None:
        """A new game of the session's content and seats (the human's `script` answered first)."""
        o = self.options
        self.log = [self.header()]
        self.human = HumanSeat(self, script)
        choosers: list[Any] = [self.human if name == HUMAN else PacedBot(self, make_agent(name, o.seed, s))
                               for s, name in enumerate(o.seats)]
        self.answers = []
        self.game = make_game(self.content, o.seed, choosers, players=len(o.seats), log=self.log, verbose=True)
        self._begin(self._play)

    def _begin(self, target: Any) -> None:
        obs = self.game.observation(self.options.human)
        self.public = view.PublicLog(self.options.human, view.card_namer(obs))
        self.fed = 0
        self.lines = self.public.lines
        self.stopping = False
        self.quiet = False
        self.status = "playing"
        self.thread = threading.Thread(target=target, name="rulekit-serve-game", daemon=True)
        self.thread.start()

    def _play(self) -> None:
        game = self.game
        try:
            game.run()
        except Stopped:
            return
        except EffectError as err:
            game.record("error", message=str(err), card=err.card.id if err.card else None)
            self._end(f"效果出错，对局停止 · an effect failed and the game stopped: {err}")
            return
        self._end("")

    def _end(self, error: str) -> None:
        with self.cond:
            self.quiet = True
            self.status = "error" if error else "over"
            self.notice = error or self.notice
            self._publish(self.game.observation(self.options.human), None)

    def ask_human(self, obs: Observation, q: Question) -> int:
        """Post the human's question to the page and wait for its answer (game thread)."""
        with self.cond:
            self.qid += 1
            self.asked, self.reply = q, None
            self._publish(obs, q)
            self.quiet = True
            while self.reply is None and not self.stopping:
                self.cond.wait()
            self.quiet = False
            if self.stopping:
                raise Stopped
            k, self.reply, self.asked = self.reply, None, None
            self.data["question"] = None
            return k

    def bot_turn(self, q: Question) -> None:
        """A bot is about to answer: with a pause, show the table first and wait (game thread)."""
        with self.cond:
            if self.stopping:
                raise Stopped
            if self.pause <= 0 or (self.human is not None and self.human.script):
                return
            self._publish(self.game.observation(self.options.human), None, asking=q)
            end = time.monotonic() + self.pause
            self.quiet = True
            while not self.stopping and (left := end - time.monotonic()) > 0:
                self.cond.wait(left)
            self.quiet = False
            if self.stopping:
                raise Stopped

    def _publish(self, obs: Observation, q: Question | None, asking: Question | None = None) -> None:
        """The page's data from the human seat's observation (held: self.cond)."""
        assert self.public is not None
        self.public.feed(self.log[self.fed:])
        self.fed = len(self.log)
        data = view.page(obs, q, self.qid)
        who = asking if asking is not None else q
        data["asking"] = {"seat": who.seat, "kind": who.kind.value, "text": who.text} if who is not None else None
        self.data = data
        self.version += 1
        self.cond.notify_all()

    # ---- the page's threads -------------------------------------------------------------------------------------
    def answer(self, qid: Any, k: Any) -> tuple[bool, str]:
        """The page's answer to question `qid`: refused (with why, in both languages) unless it answers the question
        asked now with the index of one of its options."""
        with self.cond:
            q = self.asked
            if q is None or type(qid) is not int or qid != self.qid or self.reply is not None:
                return False, (f"这个问题已经过期（现在的问题是 {self.qid if q is not None else '无'}） · that question is no "
                               f"longer asked (stale answer to {qid!r}); the page shows the question asked now")
            if not q.accepts(k):          # the core's own test, asked before the answer reaches the game thread
                return False, (f"{k!r} 不是任何选项的编号 · {k!r} is not the index of one of the {len(q.options)} options "
                               f"of '{q.kind.value}'")
            self.reply = k
            self.cond.notify_all()
            return True, ""

    def state(self, since: int = 0) -> dict[str, Any]:
        """What the page shows now (held: self.cond), with the log's lines from `since` on."""
        out = dict(self.data)
        out.update(version=self.version, status=self.status, lines=self.lines[since:], line_count=len(self.lines),
                   lint=list(self.lint), offer=self.offer, notice=self.notice, pause=self.pause,
                   seats_agents=list(self.options.seats), seed=self.options.seed,
                   replay=self.replay.progress() if self.replay is not None else None)
        return out

    def wait_state(self, after: int, since: int, timeout: float) -> dict[str, Any]:
        with self.cond:
            self.cond.wait_for(lambda: self.version > after or self.closing, timeout)
            return self.state(since)

    def set_pause(self, seconds: float) -> None:
        with self.cond:
            self.pause = max(0.0, min(10.0, seconds))
            self.version += 1
            self.cond.notify_all()

    def close(self) -> None:
        """The server is going: stop the game and answer every waiting page now."""
        with self.cond:
            self.closing = True
        self.stop()

    def stop(self) -> None:
        with self.cond:
            self.stopping = True
            self.cond.notify_all()
        if self.thread is not None and self.thread is not threading.current_thread():
            self.thread.join(timeout=10)

    # ---- reload on save -------------------------------------------------------------------------------------------
    def content_changed(self) -> None:
        """A content file was saved: check the folder; offer the new content, or show its errors and keep the game."""
        seen = time.time()
        try:
            content = load_content(self.options.content_dir)
        except ContentError as err:
            errors = [concise(d) for d in err.diagnostics if d.severity == "error"]
            with self.cond:
                self.lint, self.offer = errors, None
                self.version += 1
                self.cond.notify_all()
            return
        with self.cond:
            self.lint = []
            same = content.fingerprint == self.content.fingerprint
            self.offer = None if same else {"fingerprint": content.fingerprint, "seen_at": seen,
                                            "changed": _changed(self.content, content)}
            self._new_content = content
            self.version += 1
            self.cond.notify_all()

    def restart(self, mode: str) -> tuple[bool, str]:
        """Play the offered content (or the same, without an offer): 'new' from the start, 'continue' from the same
        position, by giving the human's answers again."""
        if self.replay is not None:
            return False, "回放中不能重新开始 · a replay cannot be restarted"
        if mode not in ("new", "continue"):
            return False, f"unknown restart mode {mode!r}: new or continue"
        script = list(self.answers) if mode == "continue" else []
        self.stop()
        with self.cond:
            if self.offer is not None:
                self.content = self._new_content
            self.offer, self.notice, self.qid = None, "", self.qid + 1
        self.start(script)
        return True, ""

    # ---- save ---------------------------------------------------------------------------------------------------
    def save_log(self) -> str:
        """The game so far as the JSON lines `rulekit play --log` writes."""
        with self.cond:
            log = list(self.log)
        path = self._path(f"rulekit-serve-seed{self.options.seed}", ".jsonl")
        P.write_log(path, log)
        return str(path)

    def save_scenario(self) -> tuple[str, str]:
        """The position the human sees now as a scenario skeleton (docs/scenarios.md); ValueError while the game moves."""
        with self.cond:
            if not self.quiet:
                raise ValueError("对局正在进行，请在轮到你时再写 · the game is moving: write the position when it waits for "
                                 "you (or raise the pause)")
            text = view.scenario_skeleton(self.game.observation(self.options.human), self.options.seed)
        path = self._path(f"position-round{self.data.get('round', 0)}", ".scenario.yaml")
        path.write_text(text, encoding="utf-8")
        return str(path), text

    def _path(self, stem: str, suffix: str) -> Path:
        folder = Path(self.options.save_dir)
        folder.mkdir(parents=True, exist_ok=True)
        n = 1
        while (folder / f"{stem}-{n}{suffix}").exists():
            n += 1
        return folder / f"{stem}-{n}{suffix}"


def _changed(old: Content, new: Content) -> list[str]:
    """The content files whose text differs, by their path in the folder."""
    names = sorted(set(old.files) | set(new.files))
    return [n for n in names if old.files.get(n) != new.files.get(n)]

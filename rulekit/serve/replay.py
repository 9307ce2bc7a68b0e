"""`rulekit serve --replay game.jsonl`: a logged game played again decision by decision, as one seat saw it.

Every seat answers from the log (rulekit.play's Decisions: each line the game writes must be the log's next,
so a log that does not reproduce stops with the line where it departs). The page steps one decision at a
time, or plays on with the pause. A log written by `rulekit play --log` or by the page's save button opens.
"""

from __future__ import annotations

from typing import Any

from rulekit import play as P
from rulekit.core.errors import EffectError
from rulekit.core.questions import Observation, Question
from rulekit.engine import make_game
from rulekit.serve.session import HUMAN, Session, Stopped

EFFECT_RECORDS = ("fire", "done", "modifier")       # written only with -v: the replay must write them too


def read_log(path: str) -> tuple[dict[str, Any], int, bool]:
    """The log's header, its number of decisions and whether it was written with -v; BadLog if it is no game log."""
    decisions, verbose = 0, False
    with P.LogReader(path) as reader:
        while (got := reader.next()) is not None:
            e = got[1]["e"]
            decisions += e == "ask"
            verbose = verbose or e in EFFECT_RECORDS
        return reader.header, decisions, verbose


class ReplaySeat:
    """A seat answered from the log, one step at a time as the page allows."""

    name = "replay"

    def __init__(self, stepper: Stepper):
        self.stepper = stepper

    def choose(self, obs: Observation, q: Question) -> int:
        rec, line = self.stepper.decisions.next(q)
        answer = P._from_json(rec["a"])
        if answer not in q.options:
            raise P.NotReproduced(line, f"the log's answer {P.shown(rec['a'])} is not a legal answer to "
                                        f"P{q.seat + 1}'s '{q.kind.value}' here")
        self.stepper.wait(q)
        return list(q.options).index(answer)


class Stepper:
    """Where the replay stands and what the page allows: steps to take, or playing on."""

    def __init__(self, session: Session, path: str, total: int):
        self.session = session
        self.path = path
        self.total = total
        self.done = 0
        self.allowed = 0
        self.playing = False
        self.decisions: Any = None
        self.reader: Any = None

    def progress(self) -> dict[str, Any]:
        return {"path": self.path, "step": self.done, "total": self.total, "playing": self.playing}

    def wait(self, q: Question) -> None:
        """Show the table before this decision, and wait until the page allows one more step (game thread)."""
        s = self.session
        with s.cond:
            if not (self.playing and s.pause <= 0):        # playing on without a pause: the page sees the next stop
                s._publish(s.game.observation(s.options.human), None, asking=q)
            s.quiet = True
            while not s.stopping and not self.allowed and not self.playing:
                s.cond.wait()
            if self.playing and not s.stopping:
                s.cond.wait(s.pause)
            s.quiet = False
            if s.stopping:
                raise Stopped
            self.allowed = max(0, self.allowed - 1)
            self.done += 1

    def step(self, count: int = 1, playing: bool | None = None) -> None:
        s = self.session
        with s.cond:
            self.allowed += max(0, count)
            if playing is not None:
                self.playing = playing
            s.version += 1
            s.cond.notify_all()


def start_replay(session: Session, path: str) -> None:
    """Open the log in the session: the game at its start, waiting for the page's first step."""
    head, total, verbose = read_log(path)
    agents = list(head["agents"])
    session.options.seats = agents
    session.options.seed = head["seed"]
    session.options.human = agents.index(HUMAN) if HUMAN in agents else 0
    stepper = Stepper(session, path, total)
    session.replay = stepper
    session.log = [head]
    stepper.reader = P.LogReader(path)
    stepper.decisions = P.Decisions(stepper.reader, session.log)
    seats = [ReplaySeat(stepper) for _ in agents]
    session.game = make_game(session.content, head["seed"], seats, players=head["players"], log=session.log,
                             verbose=verbose)

    def run() -> None:
        try:
            session.game.run()
            stepper.decisions.finish()
        except Stopped:
            return
        except P.NotReproduced as err:
            session._end(f"{path}:{err.line}: 记录无法重现 · the game does not reproduce: {err}")
            return
        except (EffectError, P.BadLog) as err:
            session._end(f"{path}: {err}")
            return
        finally:
            stepper.reader.close()
        session._end("")

    session._begin(run)

"""How a batch's games travel: forked workers that start with the parent's content and parser, and each
game sent back, and stored, the moment it ends."""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
import time

import pytest

from rulekit.core.result import GameResult
from rulekit.playtest import runner
from rulekit.playtest.runner import Batch, run
from tests.conftest import CONTENT


def result_of(seed: int, error: str | None = None) -> GameResult:
    """A stand-in for a finished game (an error when `error` is given)."""
    return GameResult(seed=seed, players=4, agents=("greedy",) * 4, advisors=(None,) * 4, winners=(0,),
                      scores=(1, 0, 0, 0), alive=(0,) * 4, rounds=1, end_reason="error" if error else "max_rounds",
                      out=(False,) * 4, cards_drawn=((),) * 4, cards_played=((),) * 4, events=(), combos_fired=(),
                      score_history=(), error=error)


@pytest.mark.skipif(runner.start_method() != "fork", reason="the stand-in game reaches workers only by fork")
def test_each_game_reaches_the_parent_as_it_ends(content, tmp_path, monkeypatch):
    """Game 0 is slow: every other game is stored as it ends, all but the one game its worker holds next."""
    released = multiprocessing.get_context("fork").Event()
    slow = runner.game_seed(1, 0)

    def stand_in(content, seed, agents, players):
        if seed == slow and not released.wait(timeout=20):
            return result_of(seed, error="the other games never arrived while game 0 was played")
        return result_of(seed)

    monkeypatch.setattr(runner, "play_one", stand_in)
    games = 40
    order = []

    def arrived(index, result):
        order.append(index)
        if len(order) == games - 2:
            released.set()

    outcome = run(content, Batch(str(CONTENT), games, 1, 4, ("greedy",) * 4), tmp_path, jobs=2, on_game=arrived)
    assert outcome.errors == 0
    assert 0 in order[-2:] and sorted(order) == list(range(games))


@pytest.mark.skipif(runner.start_method() != "fork", reason="only a forked worker inherits the parser")
def test_a_worker_starts_with_the_parents_parser_and_builds_none(content):
    from rulekit.language.parser import _lark

    assert _lark.cache_info().currsize == 1        # loading the content built it, in this process
    ctx = multiprocessing.get_context(runner.start_method())
    with ctx.Pool(1) as pool:
        assert pool.apply(_parser_ready) is True


def _parser_ready() -> bool:
    from rulekit.language.parser import _lark

    return _lark.cache_info().currsize == 1


WORKERS_THEN_SLEEP = """
import sys, time
from rulekit.content.loader import load_content
from rulekit.playtest.runner import Batch, LocalWorkers
workers = LocalWorkers(load_content(sys.argv[1]), Batch(sys.argv[1], 4, 1, 4, ("greedy",) * 4), 2)
print(" ".join(str(proc.pid) for proc, _ in workers.workers), flush=True)
time.sleep(60)
"""


def _running(pid: int) -> bool:
    """Whether `pid` is a live process (a zombie waiting for init to reap it is not)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(runner.start_method() != "fork", reason="reads /proc, and only forked workers inherit pipes")
def test_workers_exit_when_the_parent_is_killed():
    parent = subprocess.Popen([sys.executable, "-c", WORKERS_THEN_SLEEP, str(CONTENT)], stdout=subprocess.PIPE,
                              text=True)
    pids = [int(p) for p in parent.stdout.readline().split()]
    parent.kill()
    parent.wait()
    parent.stdout.close()
    for _ in range(100):                # they exit at once; this only bounds the wait if they do not
        if not any(map(_running, pids)):
            break
        time.sleep(0.1)
    left = [p for p in pids if _running(p)]
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert len(pids) == 2 and left == [], "workers outlived a killed parent"

"""The playtest progress display: each game as it ends, the errors so far, an honest rate, then the final stages."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Protocol

from rich.console import Console
from rich.progress import BarColumn, Progress, SpinnerColumn, TaskID, TextColumn


# A rate measured over less time than this is mostly the luck of which games ended first.
RATE_AFTER = 1.0


class Ended(Protocol):
    """What the display reads of a finished game: a result, or a tuning unit."""

    @property
    def end_reason(self) -> str: ...


class BatchProgress:
    """One bar for the games (done/total, errors, games per second once it means something), then a line
    for each final stage (the summary, the report), so the display never goes silent while work goes on."""

    def __init__(self, console: Console, *, enabled: bool, auto_refresh: bool = True,
                 clock: Callable[[], float] = time.monotonic, title: str = "试玩 playtest"):
        self.clock = clock
        self.title = title
        self.progress = Progress(SpinnerColumn(finished_text="✓"), TextColumn("{task.description}"), BarColumn(),
                                 TextColumn("{task.fields[count]}"), TextColumn("{task.fields[errors]}"),
                                 TextColumn("{task.fields[rate]}"), console=console, disable=not enabled,
                                 auto_refresh=auto_refresh)
        self.games: TaskID | None = None
        self.step: TaskID | None = None
        self.started = 0.0
        self.done = self.total = self.played = self.errors = 0

    def start(self, done: int, total: int) -> None:
        """The workers are running: `done` games were stored by an earlier run, `total` make the batch."""
        self.started = self.clock()
        self.done, self.total = done, total
        self.games = self.progress.add_task(self.title, total=total, completed=done, **self._fields())
        self.progress.start()

    def game(self, result: Ended) -> None:
        """One more game stored."""
        self.done += 1
        self.played += 1
        self.errors += result.end_reason == "error"
        if self.games is not None:
            self.progress.update(self.games, completed=self.done, **self._fields())

    def stage(self, words: str) -> None:
        """The batch is played; now `words` (such as writing the report) is under way."""
        self._finish_step()
        if self.games is not None:
            self.progress.update(self.games, **self._fields(final=True))
        self.step = self.progress.add_task(words, total=None, count="", errors="", rate="")

    def stop(self) -> None:
        self._finish_step()
        self.progress.stop()

    def _finish_step(self) -> None:
        if self.step is not None:
            self.progress.update(self.step, total=1, completed=1)

    def _fields(self, final: bool = False) -> dict[str, Any]:
        elapsed = self.clock() - self.started
        rate = ""
        if self.played and elapsed >= RATE_AFTER:
            speed = self.played / elapsed
            rate = f"{speed:.1f} 局/秒 games/s"
            left = (self.total - self.done) / speed
            if not final and left > 0:
                rate += f" · 约 about {_clock(left)} 剩余 left"
        style = "red" if self.errors else "dim"
        return {"count": f"{self.done}/{self.total}", "errors": f"[{style}]{self.errors} 出错 errors[/]", "rate": rate}


def _clock(seconds: float) -> str:
    m, s = divmod(round(seconds), 60)
    return f"{m // 60}:{m % 60:02d}:{s:02d}" if m >= 60 else f"{m}:{s:02d}"

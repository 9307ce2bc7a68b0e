"""`rulekit playtest`: parse options, run the batch, write summary.json, report.html and run.json."""

from __future__ import annotations

import json
import sys
from datetime import UTC, datetime
from pathlib import Path

import click

from rulekit.console import agents_or_usage_error, load_or_exit
from rulekit.playtest import report, stats
from rulekit.playtest.runner import (
    BACKENDS,
    Batch,
    BatchError,
    fingerprint,
    run,
    run_record,
)
from rulekit.playtest.store import Store


@click.command()
@click.argument("content", default="content", type=click.Path(file_okay=False))
@click.option("--games", default=200, show_default=True, type=click.IntRange(min=1), help="Games in the batch.")
@click.option("--seed", default=1, show_default=True, type=int, help="Batch seed; each game's seed derives from it and the game's index.")
@click.option("--jobs", default=1, show_default=True, type=click.IntRange(min=1), help="Worker processes.")
@click.option("--agents", default="greedy", show_default=True, help="Agent per seat, comma-separated (one name: every seat).")
@click.option("--out", default="playtest-out", show_default=True, type=click.Path(file_okay=False), help="Output folder.")
@click.option("--resume", is_flag=True, help="Complete or extend the batch already in --out.")
@click.option("--fresh", is_flag=True, help="Start over: delete the batch already in --out first.")
@click.option("--backend", default="local", show_default=True, type=click.Choice(BACKENDS))
@click.option("--scheduler", help="dask scheduler address (tcp://host:port); default: a local cluster for the run.")
@click.option("--include-tbd", is_flag=True, help="Include cards with status tbd.")
@click.option("--only-designed", is_flag=True, help="Only cards with status designed (no proposals).")
@click.option("--fail-fast", is_flag=True, help="Stop at the first game whose effect fails.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@click.option("--players", type=click.IntRange(2, 4), help="Players per game (default: rules.yaml).")
def playtest(content, games, seed, jobs, agents, out, resume, fresh, backend, scheduler, include_tbd, only_designed,
             fail_fast, quiet, players):
    """Play many seeded games and report what stands out / 批量试玩并生成统计报告.

    Results go to OUT/games.sqlite as each game ends; OUT/summary.json, OUT/report.html and
    OUT/run.json are written at the end.
    """
    if scheduler and backend != "dask":
        raise click.BadParameter("--scheduler needs --backend dask", param_hint="--scheduler")
    if include_tbd and only_designed:
        raise click.UsageError("--include-tbd and --only-designed contradict each other")
    if resume and fresh:
        raise click.UsageError("--resume and --fresh contradict each other")
    loaded = load_or_exit(content, include_tbd, only_designed)
    n = players or int(loaded.rules.get("players", 4))
    names = agents_or_usage_error(agents, n)
    batch = Batch(content, games, seed, n, tuple(names), include_tbd, only_designed)
    out = Path(out)
    if fresh:
        clear_batch(out)
    outcome, started, ended = _run(loaded, batch, out, jobs, backend, scheduler, resume, fail_fast, quiet)
    if outcome.stopped is not None:
        index, result = outcome.stopped
        click.echo(f"第 {index} 局出错，已停止 (--fail-fast) / game {index} stopped on an error"
                   f" ({result.error_card or 'unknown card'}):\n  {result.error}\n"
                   f"重放 / replay: {batch.replay(result.seed)}", err=True)
        sys.exit(1)
    summary = _write_outputs(loaded, batch, out)
    record = run_record(batch, outcome, started, ended, jobs, backend, scheduler)
    (out / "run.json").write_text(json.dumps(record, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    g = summary["games"]
    rate = f" ({outcome.played / outcome.seconds:.1f} games/s)" if outcome.seconds > 0 and outcome.played else ""
    click.echo(f"{g['total']} 局 games, {g['errors']} 出错 errors; 本次 played now {outcome.played}"
               f" in {outcome.seconds:.1f} s{rate}")
    click.echo(f"报告 / report: {out / 'report.html'}")


BATCH_FILES = ("games.sqlite", "games.sqlite-wal", "games.sqlite-shm", "summary.json", "report.html", "run.json")


def clear_batch(out: Path) -> None:
    """Remove a batch's own files from OUT (nothing else the folder holds)."""
    for name in BATCH_FILES:
        (out / name).unlink(missing_ok=True)


def _run(loaded, batch: Batch, out: Path, jobs, backend, scheduler, resume, fail_fast, quiet):
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    console = Console(stderr=True)
    show = not quiet and console.is_terminal
    progress = Progress(TextColumn("试玩 playtest"), BarColumn(), MofNCompleteColumn(),
                        TextColumn("{task.fields[speed]}"), TimeRemainingColumn(), console=console, disable=not show)
    task = None

    def on_start(done: int, total: int) -> None:
        nonlocal task
        task = progress.add_task("playtest", total=total, completed=done, speed="")

    def on_game(index, result) -> None:
        t = progress.tasks[0] if progress.tasks else None
        speed = f"{t.speed:.1f} games/s" if t is not None and t.speed else ""
        progress.update(task, advance=1, speed=speed)

    started = _now()
    try:
        with progress:
            outcome = run(loaded, batch, out, jobs=jobs, backend=backend, scheduler=scheduler, resume=resume,
                          fail_fast=fail_fast, on_start=on_start, on_game=on_game)
    except BatchError as err:
        click.echo(str(err), err=True)
        sys.exit(1)
    except KeyboardInterrupt:
        click.echo(f"\n已中断 / interrupted: finished games are saved in {out / 'games.sqlite'};"
                   f" run the same command with --resume to go on.", err=True)
        sys.exit(130)
    return outcome, started, _now()


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _write_outputs(loaded, batch: Batch, out: Path) -> dict:
    """summary.json (streamed from games.sqlite) and report.html."""
    store = Store(out)
    try:
        summary = stats.summarize(store.results(), loaded, batch, fingerprint(batch.content))
    finally:
        store.close()
    (out / "summary.json").write_text(stats.dumps(summary), encoding="utf-8")
    (out / "report.html").write_text(report.render(summary), encoding="utf-8")
    return summary

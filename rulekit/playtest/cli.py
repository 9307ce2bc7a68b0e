"""`rulekit playtest`: parse options, run the batch, write summary.json, report.html and run.json."""

from __future__ import annotations

import json
import sys
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

import click

from rulekit import registry
from rulekit.agents import seat_agents
from rulekit.console import SEED, Command, agents_or_usage_error, echo, load_or_exit
from rulekit.playtest import report, stats
from rulekit.playtest import skill as skill_mod
from rulekit.playtest.audit import Expected, audited
from rulekit.playtest.options import GAMES, scheduler_address
from rulekit.playtest.progress import BatchProgress
from rulekit.playtest.runner import (
    BACKENDS,
    Batch,
    BatchError,
    run,
    run_record,
)
from rulekit.playtest.store import Store, StoreError, batch_lock, write_atomic
from rulekit.playtest.value import ValuePlan
from rulekit.playtest.value_stats import stored
from rulekit.playtest.value_stats import summarize as summarize_values

DEFAULT_CONTENT = "content"




@click.command(cls=Command)
@click.argument("content_arg", metavar="[CONTENT]", required=False, type=click.Path(file_okay=False))
@click.option("--content", "content_opt", type=click.Path(file_okay=False),
              help="内容文件夹，也可直接写在命令后（默认 content） / "
                   "The content folder; it may also come first, without --content (default: content).")
@click.option("--games", type=GAMES,
              help=f"本批对局数（1 到 {GAMES.hi:,}，默认 200；--skill 默认 {skill_mod.DEFAULT_GAMES} 个种子） / Games in the "
                   f"batch, 1 to {GAMES.hi:,} (default 200; with --skill, {skill_mod.DEFAULT_GAMES} seeds).")
@click.option("--seed", default=1, show_default=True, type=SEED,
              help=f"批次种子（0 到 {SEED.hi:,}），每局的种子由它和局号决定 / "
                   f"The batch seed, 0 to {SEED.hi:,}; each game's seed derives from it and the game's index.")
@click.option("--jobs", default=1, show_default=True, type=click.IntRange(min=1),
              help="并行的工作进程数 / Worker processes playing at the same time.")
@click.option("--agents", default="greedy", show_default=True,
              help="每个座位的代理，逗号分隔；只写一个则所有座位相同 / "
                   "Agent per seat, comma-separated (one name: every seat).")
@click.option("--out", default="playtest-out", show_default=True, type=click.Path(file_okay=False),
              help="输出文件夹 / Output folder.")
@click.option("--resume", is_flag=True,
              help="继续或扩展 --out 中已有的批次 / Complete or extend the batch already in --out.")
@click.option("--fresh", is_flag=True,
              help="重新开始：先删除 --out 中已有批次的文件 / Start over: delete the batch already in --out first.")
@click.option("--backend", default="local", show_default=True, type=click.Choice(BACKENDS),
              help="local：本机多进程；dask：dask 集群 / local: processes on this machine; dask: a dask cluster.")
@click.option("--scheduler", callback=lambda ctx, param, value: scheduler_address(value),
              help="dask 调度器地址 tcp://host:port；不给则为本次运行启动本地集群 / "
                   "dask scheduler address (tcp://host:port); default: a local cluster for the run.")
@click.option("--include-tbd", is_flag=True, help="加入标为 tbd 的牌 / Include cards with status tbd.")
@click.option("--only-designed", is_flag=True,
              help="只用已定稿的牌（不含提议） / Only cards with status designed (no proposals).")
@click.option("--fail-fast", is_flag=True,
              help="第一局效果出错就停下 / Stop at the first game whose effect fails.")
@click.option("--quiet", is_flag=True, help="不显示进度 / No progress display.")
@click.option("--players", type=click.IntRange(2, 4),
              help="每局人数（默认见 rules.yaml） / Players per game (default: rules.yaml).")
@click.option("--value", "measure", is_flag=True,
              help="同时测量每张牌的因果价值（见 rulekit value；每张牌约多 1.5 倍时间） / Also measure each card's causal "
                   "value (as rulekit value does; each card costs about 1.5 plain batches more).")
@click.option("--skill", is_flag=True,
              help="技能：同一批种子上，一个轮换座位分别由 random、greedy、mcts 来下，其余为 greedy，报告每一级水平"
                   "（按顾问、按牌）多赢多少 / Skill: on the same seeds one rotating seat is played by random, greedy and "
                   "mcts (the others greedy); reports what each level of play gains, per advisor and per card.")
@click.option("--skill-agent", default="mcts", show_default=True,
              help="--skill 的搜索代理，如 mcts:24 / The searching level of --skill, e.g. mcts:24.")
def playtest(content_arg, content_opt, games, seed, jobs, agents, out, resume, fresh, backend, scheduler,
             include_tbd, only_designed, fail_fast, quiet, players, measure, skill, skill_agent):
    """批量试玩并报告值得注意之处 / Play many seeded games and report what stands out.

    \b
    内容文件夹可写作 CONTENT 或 --content（默认 content）。每局结束即存入
    OUT/games.sqlite；最后写出 OUT/summary.json、OUT/report.html 和 OUT/run.json。

    The content folder is CONTENT or --content (default: content). Each game goes to
    OUT/games.sqlite as it ends; OUT/summary.json, OUT/report.html and OUT/run.json
    are written at the end.
    """
    if content_arg and content_opt and Path(content_arg) != Path(content_opt):
        raise click.UsageError(f"两个内容文件夹 / two content folders: {content_arg} and --content {content_opt};"
                               f" give it once")
    content = content_opt or content_arg or DEFAULT_CONTENT
    if scheduler and backend != "dask":
        raise click.BadParameter("--scheduler needs --backend dask", param_hint="--scheduler")
    if include_tbd and only_designed:
        raise click.UsageError("--include-tbd and --only-designed contradict each other")
    if resume and fresh:
        raise click.UsageError("--resume and --fresh contradict each other")
    loaded = load_or_exit(content, include_tbd, only_designed)
    n = players or int(loaded.rules.get("players", registry.DEFAULT_RULES["players"]))
    if skill:
        _skill(loaded, games or skill_mod.DEFAULT_GAMES, seed, n, skill_agent, jobs, Path(out), quiet)
        return
    games = games or 200
    names = agents_or_usage_error(agents, n)
    batch = Batch(content, games, seed, n, tuple(names), include_tbd, only_designed,
                  value=ValuePlan() if measure else None)
    out = Path(out)
    view = _view(quiet)
    with reported(view, out), batch_lock(out):     # the lock is held from --fresh to the last file written
        if fresh:
            clear_batch(out)
        started = _now()
        outcome = run(loaded, batch, out, jobs=jobs, backend=backend, scheduler=scheduler, resume=resume,
                      fail_fast=fail_fast, on_start=view.start, on_game=lambda i, result: view.game(result))
        ended = _now()
        if outcome.stopped is None:
            summary = _write_outputs(loaded, batch, out, view)
            record = run_record(batch, outcome, started, ended, jobs, backend, scheduler)
            _write(out / "run.json", json.dumps(record, ensure_ascii=False, indent=2) + "\n")
    view.stop()
    if outcome.stopped is not None:
        index, result = outcome.stopped
        echo(f"第 {index} 局出错，已停止 (--fail-fast) / game {index} stopped on an error"
             f" ({result.error_card or 'unknown card'}):\n  {result.error}\n"
             f"重放 / replay: {batch.replay(result.seed)}", err=True)
        sys.exit(1)
    g = summary["games"]
    rate = f" ({outcome.played / outcome.seconds:.1f} games/s)" if outcome.seconds > 0 and outcome.played else ""
    click.echo(f"{g['total']} 局 games, {g['errors']} 出错 errors; 本次 played now {outcome.played}"
               f" in {outcome.seconds:.1f} s{rate}")
    click.echo(f"报告 / report: {out / 'report.html'}")


def _skill(loaded, games: int, seed: int, players: int, agent: str, jobs: int, out: Path, quiet: bool) -> None:
    """--skill: the same seeds at three levels of play, a plain report printed and written to OUT/skill.txt, .json."""
    if agent.partition(":")[0] != "mcts":
        raise click.BadParameter(f"'{agent}': the searching level is an mcts agent (mcts, mcts:N)",
                                 param_hint="--skill-agent")
    try:
        seat_agents([agent], players)
    except ValueError as err:
        raise click.BadParameter(str(err), param_hint="--skill-agent") from None
    done = [0]

    def tick(g) -> None:
        done[0] += 1
        if not quiet:
            click.echo(f"  seed {done[0]}/{games}", err=True)
    games_played = skill_mod.play(loaded, games, seed, players, agent, jobs, tick)
    summary = skill_mod.summarize(games_played)
    text = skill_mod.render(summary)
    out.mkdir(parents=True, exist_ok=True)
    _write(out / "skill.json", json.dumps(summary, ensure_ascii=False, indent=2) + "\n")
    _write(out / "skill.txt", text + "\n")
    click.echo(text)
    click.echo(f"报告 / report: {out / 'skill.txt'}, {out / 'skill.json'}")


@contextmanager
def reported(view: BatchProgress, out: Path):
    """A batch that cannot go on says why (exit 1); Ctrl-C says how to go on (exit 130); the display stops first."""
    try:
        yield
    except (BatchError, StoreError) as err:
        view.stop()
        echo(str(err), err=True)
        sys.exit(1)
    except KeyboardInterrupt:
        view.stop()
        click.echo(f"\n已中断 / interrupted: finished games are saved in {out / 'games.sqlite'};"
                   f" run the same command with --resume to go on.", err=True)
        sys.exit(130)


BATCH_FILES = ("games.sqlite", "games.sqlite-wal", "games.sqlite-shm", "summary.json", "report.html", "run.json",
               "value.json")


def clear_batch(out: Path) -> None:
    """Remove a batch's own files from OUT (nothing else the folder holds)."""
    for name in BATCH_FILES:
        path = out / name
        try:
            path.unlink(missing_ok=True)
        except OSError as err:
            raise StoreError(f"--fresh cannot remove {path} ({err.strerror or type(err).__name__}) / 无法删除。"
                             f" Remove it yourself, or choose another --out.") from None


def _view(quiet: bool, label: str = "试玩 playtest") -> BatchProgress:
    from rich.console import Console

    console = Console(stderr=True)
    return BatchProgress(console, enabled=not quiet and console.is_terminal, title=label)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _write_outputs(loaded, batch: Batch, out: Path, view: BatchProgress) -> dict:
    """summary.json (streamed from games.sqlite) and report.html, each replaced whole."""
    view.stage("汇总 writing summary.json")
    store = Store(out)
    try:
        row = store.batch()
        assert row is not None          # the batch was stored before its games were played
        expected = Expected.of(batch, loaded, row["games"])
        summary = stats.summarize(audited(store.results(), expected, store.path), loaded, batch,
                                  loaded.fingerprint)
        if batch.value is not None:
            summary["value"] = summarize_values(stored(store), loaded, batch.value).summary()
    finally:
        store.close()
    _write(out / "summary.json", stats.dumps(summary))
    view.stage("报告 writing report.html")
    _write(out / "report.html", report.render(summary))
    return summary


def _write(path: Path, text: str) -> None:
    """Write one of the batch's files whole, or say why not: the games are safe, and --resume writes it again."""
    try:
        write_atomic(path, text)
    except OSError as err:
        raise StoreError(f"cannot write {path} ({err.strerror or type(err).__name__}) / 无法写入该文件。"
                         f" Every game is safe in {path.parent / 'games.sqlite'}; free some space or fix the"
                         f" folder, then run the same command with --resume (not --fresh) to write it.") from None

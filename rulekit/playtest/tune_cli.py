"""`rulekit tune CARD`: parse the options, run the search, print its table and advice, write tune.json (and the YAML)."""

from __future__ import annotations

import math
import re
import sys
from contextlib import contextmanager
from pathlib import Path

import click
from rich.console import Console

from rulekit import registry
from rulekit.console import SEED, Command, agents_or_usage_error, echo, load_or_exit
from rulekit.content.edit import EditError, Field, write
from rulekit.lint.render import display_width
from rulekit.playtest.progress import BatchProgress
from rulekit.playtest.options import GAMES, scheduler_address
from rulekit.playtest.runner import BACKENDS, Batch, BatchError
from rulekit.playtest.stats import dumps
from rulekit.playtest.store import StoreError, batch_lock, write_atomic
from rulekit.playtest.tune import VERDICTS, Ask, Search, TuneError, Tuned, default_range
from rulekit.playtest.tune_measure import Player, Unit

TUNE_FILE = "tune.json"
NEVER_KEPT = "没有座位保留它 never kept"


def _field(ctx, param, value):
    try:
        return Field.parse(value) if value is not None else None
    except ValueError as err:
        raise click.BadParameter(str(err)) from None


def _finite(ctx, param, value):
    if value is not None and not math.isfinite(value):
        raise click.BadParameter(f"{value} is not a number tune can aim at: give a finite one / 请给出一个有限的数")
    return value


def _range(ctx, param, value):
    if value is None:
        return None
    m = re.fullmatch(r"\s*(-?[0-9]{1,10})\s*\.\.\s*(-?[0-9]{1,10})\s*", value)
    if m is None or int(m.group(1)) > int(m.group(2)):
        raise click.BadParameter(f"{value!r} is no range: write LO..HI with whole numbers, LO at most HI, such as 2..8"
                                 f" / 范围写作 LO..HI，如 2..8")
    return int(m.group(1)), int(m.group(2))


@click.command("tune", cls=Command)
@click.argument("card")
@click.option("--content", "content_dir", default="content", show_default=True, type=click.Path(file_okay=False),
              help="内容文件夹 / The content folder.")
@click.option("--field", "field", callback=_field, metavar="FIELD",
              help="要调的数：price（第一个价格）、price[2]（第二次执行的价格）、score、params.NAME；政策默认 price / "
                   "The number to tune: price (the first price), price[2] (the 2nd execution's), score, or "
                   "params.NAME; a policy's default is price.")
@click.option("--range", "span", callback=_range, metavar="LO..HI",
              help="要试的值的范围（默认在当前值附近，必要时自动放宽） / The values to try (default: around the current "
                   "value, widened if all of it lies on one side of the band).")
@click.option("--target", type=float, callback=_finite,
              help="目标：政策的因果价值（分），顾问的胜率（0 到 1）；默认见下 / The target: a policy's causal value in "
                   "points, an advisor's win rate (0 to 1); default below.")
@click.option("--band", type=click.FloatRange(min=0, min_open=True), callback=_finite,
              help="目标两侧的宽度（政策默认 1 分，顾问默认 0.05） / How far from the target still counts as on target "
                   "(policy: 1 point; advisor: 0.05).")
@click.option("--budget", default=2000, show_default=True, type=GAMES,
              help="候选值最多可打的对局数（同阶段的参照另算，并会保存） / Games the candidates may play at most (the "
                   "stage reference is apart, and kept).")
@click.option("--reference-games", default=200, show_default=True, type=GAMES,
              help="测同阶段其他牌的因果价值所用的对局数 / Games measuring the stage's other cards (the default target).")
@click.option("--seed", default=1, show_default=True, type=SEED, help="批次种子 / The batch seed.")
@click.option("--players", type=click.IntRange(2, 4), help="每局人数（默认见 rules.yaml） / Players per game (default: "
                                                           "rules.yaml).")
@click.option("--agents", default="greedy", show_default=True,
              help="每个座位的代理，逗号分隔 / Agent per seat, comma-separated (one name: every seat).")
@click.option("--jobs", default=1, show_default=True, type=click.IntRange(min=1),
              help="并行的工作进程数 / Worker processes playing at the same time.")
@click.option("--backend", default="local", show_default=True, type=click.Choice(BACKENDS),
              help="local：本机多进程；dask：dask 集群 / local: processes on this machine; dask: a dask cluster.")
@click.option("--scheduler", callback=lambda ctx, param, value: scheduler_address(value),
              help="dask 调度器地址 tcp://host:port / dask scheduler address (tcp://host:port).")
@click.option("--out", default="tune-out", show_default=True, type=click.Path(file_okay=False),
              help="输出文件夹：tune.json 和同阶段参照 stage-values.json / Output folder: tune.json, and the stage "
                   "reference stage-values.json.")
@click.option("--write", "write_yaml", is_flag=True,
              help="把推荐值写回卡牌的 YAML 文件（只改这一个数） / Write the recommended value into the card's YAML "
                   "file (that number alone).")
@click.option("--include-tbd", is_flag=True, help="加入标为 tbd 的牌 / Include cards with status tbd.")
@click.option("--only-designed", is_flag=True,
              help="只用已定稿的牌（不含提议） / Only cards with status designed (no proposals).")
@click.option("--quiet", is_flag=True, help="不显示进度 / No progress display.")
def tune(card, content_dir, field, span, target, band, budget, reference_games, seed, players, agents, jobs, backend,
         scheduler, out, write_yaml, include_tbd, only_designed, quiet):
    """为一张牌的一个数找合适的值 / Search one number of a card for the value that balances it.

    \b
    对每个候选值用同样的种子对局，测这张牌的因果价值（顾问：保留它的座位的胜率），
    把对局花在还不确定的候选值上，直到某个值的区间落进目标范围，或预算用完。
    政策的默认目标是同阶段其他政策因果价值的中位数；顾问的是 1/人数。

    Every value tried plays the same seeds; each is measured by the card's causal
    value (an advisor: the win rate of the seats that kept it). Games go to the values
    still uncertain until one's interval lies inside the band, or the budget is spent.
    A policy's default target is the median causal value of its stage's other
    policies; an advisor's is 1 / players.
    """
    if scheduler and backend != "dask":
        raise click.BadParameter("--scheduler needs --backend dask", param_hint="--scheduler")
    if include_tbd and only_designed:
        raise click.UsageError("--include-tbd and --only-designed contradict each other")
    loaded = load_or_exit(content_dir, include_tbd, only_designed)
    n = players or int(loaded.rules.get("players", registry.DEFAULT_RULES["players"]))
    batch = Batch(content_dir, budget, seed, n, tuple(agents_or_usage_error(agents, n)), include_tbd, only_designed)
    found = loaded.lookup(card, "policy") or loaded.lookup(card, "advisor")
    if field is None:
        field = _default_field(found)
    ask = Ask(card, field, *(span or (None, None)), target, band, budget, reference_games)
    out = Path(out)
    view = Phases(quiet)
    try:        # every usage error before anything is made on disk
        search = Search(loaded, ask, batch, Player(batch, jobs, backend, scheduler), out=out,
                        on_phase=view.phase, on_game=view.game)
    except TuneError as err:
        raise click.BadParameter(str(err), param_hint=err.option) from None
    _check_range(search, span)
    with _stopped(view), batch_lock(out):
        tuned = search.run()
        written(out / TUNE_FILE, dumps(tune_json(tuned, batch, loaded.fingerprint)))
    view.stop(finished=True)
    for line in table(tuned):
        echo(line)
    echo(f"写出 wrote {out / TUNE_FILE}")
    if write_yaml:
        _write_back(tuned)


def _default_field(card) -> Field:
    if card is None or card.kind == "policy":
        return Field("price")
    names = [name for name, _ in card.params]
    if len(names) == 1:
        return Field("param", name=names[0])
    raise click.BadParameter(f"{card.label} is an advisor: name the parameter to tune with --field params.NAME"
                             f" ({'its params: ' + ', '.join(names) if names else 'it has no params: yet'})",
                             param_hint="--field")


def _check_range(search: Search, span) -> None:
    lo, hi = search.ask.field.bounds
    if span is not None and not (lo <= span[0] and span[1] <= hi):
        raise click.BadParameter(f"{search.ask.field.label} goes from {lo:,} to {hi:,}: the range must lie within",
                                 param_hint="--range")


class Phases:
    """One progress bar per phase (the stage reference, then the search), each left on screen when done.

    The bars have no refresh thread of their own — worker processes are forked at each round, and a fork
    must not copy a running thread — so each game ended refreshes the display."""

    def __init__(self, quiet: bool):
        self.quiet = quiet
        self.view: BatchProgress | None = None

    def phase(self, words: str, total: int) -> None:
        self.stop(finished=True)
        console = Console(stderr=True)
        self.view = BatchProgress(console, enabled=not self.quiet and console.is_terminal, auto_refresh=False,
                                  title=words)
        self.view.start(0, total)
        self.view.progress.refresh()

    def game(self, unit: Unit) -> None:
        if self.view is not None:
            self.view.game(unit)
            self.view.progress.refresh()

    def stop(self, finished: bool = False) -> None:
        """Stop the display; a finished phase's bar ends full (a search needing fewer games than its budget)."""
        if self.view is not None:
            if finished and self.view.games is not None:
                self.view.progress.update(self.view.games, total=self.view.done)
            self.view.stop()
            self.view = None


@contextmanager
def _stopped(view: Phases):
    """A run that cannot go on says why (exit 1); Ctrl-C stops it (exit 130); the display stops first."""
    try:
        yield
    except (BatchError, StoreError, TuneError) as err:
        view.stop()
        echo(str(err), err=True)
        sys.exit(1)
    except KeyboardInterrupt:
        view.stop()
        click.echo("\n已中断 / interrupted: nothing was written but the stage reference, if it was finished.",
                   err=True)
        sys.exit(130)


def written(path: Path, text: str) -> None:
    """Write one of tune's files whole, or say why not (the stage reference, once measured, is kept)."""
    try:
        write_atomic(path, text)
    except OSError as err:
        raise StoreError(f"cannot write {path} ({err.strerror or type(err).__name__}) / 无法写入该文件: free some "
                         f"space or fix the folder, or choose another --out") from None


def _write_back(tuned: Tuned) -> None:
    advice = tuned.advice
    spot = tuned.spot
    if advice.value is None or not advice.written:
        echo(f"未写入 not written: 游戏还没有给出确定的答案 the games have not settled a value ({spot.where} is unchanged)")
        return
    if advice.value == tuned.current:
        echo(f"未改动 unchanged: {spot.where} 已经是 already {tuned.current}")
        return
    try:
        write(spot, tuned.raw, advice.value)
    except EditError as err:
        echo(str(err), err=True)
        raise SystemExit(1) from None
    echo(f"已写入 wrote {tuned.field.label} = {advice.value} (was {tuned.current}) at {spot.where}")


# ---- what is shown and written -----------------------------------------------------------------------------

def table(t: Tuned) -> list[str]:
    """The search as a designer reads it: the target, each value tried with its measure, the advice and why."""
    pct = t.measure == "win rate"
    card = t.card
    out = [f"{card.name} ({card.id}) · {t.field.words}: 现在 now {t.current}, 试过 tried {t.lo}..{t.hi}"]
    goal = t.target
    if goal.source == "stage":
        out.append(f"目标 target: 第 {goal.stage} 阶段其他 {len(goal.others)} 张政策因果价值的中位数 {goal.value:+.2f} 分 ± "
                   f"{goal.band:g} / the median causal value of stage {goal.stage}'s other policies, in points, "
                   f"over {t.reference_games} games")
    elif goal.source == "players":
        out.append(f"目标 target: 胜率 win rate {goal.value * 100:.0f}% ± {goal.band * 100:.0f}% (1 / players)")
    else:
        out.append(f"目标 target: {_num(goal.value, pct)} ± {_num(goal.band, pct, signed=False)} (--target, --band)")
    what = "胜率 win rate [95%]" if pct else "因果价值 value [95%]"
    rows = [(t.field.words, "局 games", "点 points" if not pct else "座 seats", what,
             "" if pct else "胜负 win [95%]", "判断 verdict")]
    for r in t.rows:
        mark = " ←现在 now" if r.value == t.current else ""
        mark += " ★" if r.value == t.advice.value else ""
        verdict = (NEVER_KEPT if pct and r.verdict == "unplayed" else VERDICTS[r.verdict]) + (
            f": {r.problem}" if r.problem else "")
        rows.append((f"{r.value}{mark}", str(r.games), str(r.points), _ci(r.estimate, r.ci95, pct),
                     "" if pct else _ci(r.win, r.win_ci95, True), verdict))
    widths = [max(display_width(r[k]) for r in rows) + 2 for k in range(len(rows[0]) - 1)]
    out += ["".join(cell + " " * (w - display_width(cell)) for cell, w in zip(r, widths, strict=False)) + r[-1] for r in rows]
    out.append(f"推荐 advice: {t.advice.zh}")
    out.append(f"             {t.advice.en}")
    out.append(f"{t.spent} 局 games of the budget {t.budget}"
               + (f", plus {t.reference_games} of the stage reference" if t.reference_games else "")
               + "; 只对这些代理成立 this holds for these agents.")
    return out


def _num(x: float, pct: bool, signed: bool = True) -> str:
    if pct:
        return f"{x * 100:.0f}%"
    return f"{x:+.2f}" if signed else f"{x:.2f}"


def _ci(v, ci, pct: bool) -> str:
    if v is None:
        return "—"
    return f"{_num(v, pct)} [{_num(ci[0], pct)}, {_num(ci[1], pct)}]" if ci else _num(v, pct)


def tune_json(t: Tuned, batch: Batch, fingerprint: str) -> dict:
    """tune.json: what was asked, the target, every value tried, the rounds and the advice — no times, so the
    same inputs give the same bytes."""
    goal = t.target
    return {
        "card": {"id": t.card.id, "name": t.card.name, "kind": t.card.kind},
        "field": t.field.label, "current": t.current, "range": [t.lo, t.hi],
        "written_at": {"file": t.spot.file, "line": t.spot.line, "col": t.spot.col},
        "measure": t.measure,
        "target": {"value": goal.value, "band": goal.band, "lo": goal.lo, "hi": goal.hi, "source": goal.source,
                   "stage": goal.stage,
                   "stage_cards": {cid: {"name": name, "value": v, "ci95": list(ci) if ci else None, "points": points}
                                   for cid, name, v, ci, points in goal.others}},
        "candidates": [{"value": r.value, "games": r.games, "points": r.points, "errors": r.errors,
                        "estimate": r.estimate, "ci95": list(r.ci95) if r.ci95 else None,
                        "win": r.win, "win_ci95": list(r.win_ci95) if r.win_ci95 else None,
                        "verdict": r.verdict, "problem": r.problem} for r in t.rows],
        "rounds": [[{"value": v, "games": n} for v, n in rnd] for rnd in t.rounds],
        "advice": {"value": t.advice.value, "kind": t.advice.kind, "settled": t.advice.written,
                   "zh": t.advice.zh, "en": t.advice.en},
        "budget": t.budget, "games_played": t.spent, "reference_games": t.reference_games,
        "seed": batch.seed, "players": batch.players, "agents_by_seat": list(batch.agents),
        "content": {"path": batch.content, "fingerprint": fingerprint},
        "default_range": list(default_range(t.field, t.current)),
        "definitions": DEFINITIONS,
    }


DEFINITIONS = {
    "value": "A policy's measure: its causal value (as rulekit value measures it) with the number set to each value: "
             "the mean over decision points where a seat could play it of the seat's final score when it plays it "
             "now minus when it does not (nor later), with a 95% interval, the game as the unit. / 政策：因果价值。",
    "win rate": "An advisor's measure: the share of the seats that kept it which won (a shared win counts), with a "
                "95% interval, the game as the unit. / 顾问：保留它的座位的胜率。",
    "target": "The measure the card should come near: value ± band. Default for a policy: the median causal value "
              "of the other policies of its stage, on the first reference_games seeds; for an advisor: 1 / "
              "players. / 目标：政策默认为同阶段其他政策因果价值的中位数，顾问为 1/人数。",
    "verdict": "inside: the 95% interval lies within the band; above / below: wholly above or below it; unsure: "
               "it overlaps an edge; unplayed: no decision point to measure; invalid: the content has an error "
               "with this value. / 判断：区间整个落在范围内、整个在上方或下方，或还不确定。",
    "seeds": "Game i of every value tried has seed i of the batch (as in rulekit playtest), so the values are "
             "compared on the same games (common random numbers). / 每个候选值用同样的种子。",
}

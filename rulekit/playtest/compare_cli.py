"""`rulekit compare`: parse options, load both contents (one perhaps from git), play each side's batch, write
compare.json and compare.html."""

from __future__ import annotations

import sys
import tempfile
from contextlib import ExitStack
from pathlib import Path

import click

from rulekit import registry
from rulekit.console import SEED, Command, agents_or_usage_error, echo, load_or_exit
from rulekit.content import diff
from rulekit.content.loader import load_content
from rulekit.model import Content
from rulekit.language.diagnostics import ContentError, concise
from rulekit.playtest import compare as C
from rulekit.playtest import compare_report
from rulekit.playtest.cli import DEFAULT_CONTENT, _view
from rulekit.playtest.gitrev import RevisionError, extract
from rulekit.playtest.options import GAMES, scheduler_address
from rulekit.playtest.runner import BACKENDS, Batch, BatchError
from rulekit.playtest.store import StoreError, write_atomic
from rulekit.playtest.value import ValuePlan

MAX_SHOWN = 15      # "what changed" lines printed; the report lists them all


@click.command("compare", cls=Command)
@click.argument("folders", nargs=-1, metavar="[BASE] NEW", type=click.Path(file_okay=False))
@click.option("--base", "base_rev", metavar="REV",
              help="与本仓库在 git 版本 REV（如 HEAD、HEAD~1、main）时的同一内容文件夹比较 / "
                   "Compare with the same content folder as it was at git revision REV (HEAD, HEAD~1, main …) "
                   "of its repository.")
@click.option("--games", default=400, show_default=True, type=GAMES,
              help=f"每边的对局数（1 到 {GAMES.hi:,}） / Games on each side, 1 to {GAMES.hi:,}.")
@click.option("--seed", default=1, show_default=True, type=SEED,
              help="两边共用的批次种子：第 i 局两边种子相同 / The batch seed both sides share: game i has the "
                   "same seed on each side.")
@click.option("--players", type=click.IntRange(2, 4),
              help="每局人数（默认见新内容的 rules.yaml） / Players per game (default: the new content's rules.yaml).")
@click.option("--agents", default="greedy", show_default=True,
              help="每个座位的代理，两边相同；逗号分隔 / Agent per seat, the same on both sides; comma-separated.")
@click.option("--jobs", default=1, show_default=True, type=click.IntRange(min=1),
              help="并行的工作进程数 / Worker processes playing at the same time.")
@click.option("--backend", default="local", show_default=True, type=click.Choice(BACKENDS),
              help="local：本机多进程；dask：dask 集群 / local: processes on this machine; dask: a dask cluster.")
@click.option("--scheduler", callback=lambda ctx, param, value: scheduler_address(value),
              help="dask 调度器地址 tcp://host:port / dask scheduler address (tcp://host:port).")
@click.option("--include-tbd", is_flag=True, help="两边都加入 tbd 牌 / Include cards with status tbd, on both sides.")
@click.option("--only-designed", is_flag=True,
              help="两边都只用已定稿的牌 / Only cards with status designed, on both sides.")
@click.option("--out", default="compare-out", show_default=True, type=click.Path(file_okay=False),
              help="写出 compare.json 和 compare.html 的文件夹 / Folder for compare.json and compare.html.")
@click.option("--results", default="rulekit-results", show_default=True, type=click.Path(file_okay=False),
              help="保存每边对局的文件夹：同样的内容、种子和代理不必再打一遍 / Folder keeping each side's games: "
                   "the same content, seed and agents are never played twice.")
@click.option("--value", "measure", is_flag=True,
              help="两边都测量改动过的牌（或 --value-card 指定的牌）的因果价值并比较 / Also measure, on both sides, the "
                   "causal value of the cards the change touched (or those named by --value-card), and compare it.")
@click.option("--value-card", "value_cards", multiple=True, metavar="CARD",
              help="与 --value 一起：测量这张牌（id 或中文名，可重复） / With --value: measure this card (id or name; "
                   "repeat for more).")
@click.option("--quiet", is_flag=True, help="不显示进度 / No progress display.")
def compare(folders, base_rev, games, seed, players, agents, jobs, backend, scheduler, include_tbd, only_designed,
            out, results, measure, value_cards, quiet):
    """比较两份内容：同样的种子、座位和代理，逐局配对 / Compare two contents on the same seeds, seats and agents, game by game.

    \b
    rulekit compare OLD NEW          两个内容文件夹 / two content folders
    rulekit compare --base HEAD      content/ 与上一次提交相比 / content/ against its last commit
    rulekit compare --base main my-content

    \b
    先写出内容的改动，再列出经错误发现率控制后仍成立的每一个差异（胜率、打出率、
    对局长度、分数、整体指标），各带配对 95% 区间。结果写入 OUT/compare.json 和
    OUT/compare.html；每边的对局存在 RESULTS 中，下次比较直接复用。

    It opens with what changed in the content, then lists every difference that holds once the
    false discovery rate is controlled (win rates, play rates, game length, scores, whole-game
    metrics), each with its paired 95% interval. OUT/compare.json and OUT/compare.html hold it
    all; each side's games stay in RESULTS, so the next comparison reuses them.
    """
    if value_cards and not measure:
        raise click.UsageError("--value-card names a card to measure with --value: add --value")
    if scheduler and backend != "dask":
        raise click.BadParameter("--scheduler needs --backend dask", param_hint="--scheduler")
    if include_tbd and only_designed:
        raise click.UsageError("--include-tbd and --only-designed contradict each other")
    if base_rev is not None and len(folders) > 1:
        raise click.UsageError(f"--base {base_rev} compares one content folder with its past: give one folder, not"
                               f" {len(folders)} / 使用 --base 时只写一个内容文件夹")
    if base_rev is None and len(folders) != 2:
        raise click.UsageError("give two content folders (rulekit compare OLD NEW), or one and --base REV"
                               " / 请给出两个内容文件夹，或一个文件夹加 --base REV")
    with ExitStack() as stack:
        try:
            if base_rev is None:
                base_label, new_dir = folders
                base = load_or_exit(base_label, include_tbd, only_designed)
            else:
                new_dir = folders[0] if folders else DEFAULT_CONTENT
                base_label, base = _load_revision(new_dir, base_rev, include_tbd, only_designed, stack)
        except RevisionError as err:
            echo(str(err), err=True)
            sys.exit(1)
        new = load_or_exit(new_dir, include_tbd, only_designed)
        n = players or int(new.rules.get("players", registry.DEFAULT_RULES["players"]))
        names = tuple(agents_or_usage_error(agents, n))
        plan = _value_plan(base, new, value_cards) if measure else None
        sides = (C.Side(base_label, base, Batch(base_label, games, seed, n, names, include_tbd, only_designed, plan)),
                 C.Side(new_dir, new, Batch(new_dir, games, seed, n, names, include_tbd, only_designed, plan)))
        record = _run(sides, Path(results), Path(out), jobs, backend, scheduler, quiet)
    _tell(record, Path(out))


def _value_plan(base: Content, new: Content, named: tuple[str, ...]) -> ValuePlan:
    """The cards whose causal value both sides measure: those named, else those the change touched that either side
    can measure (policies and advisors), else every one."""
    if named:
        ids = []
        for ref in named:
            card = new.lookup(ref) or base.lookup(ref)
            if card is None or card.kind not in ("policy", "advisor"):
                raise click.BadParameter(f"no 政策或顾问 policy or advisor named {ref!r} on either side",
                                         param_hint="--value-card")
            ids.append(card.id)
        return ValuePlan(cards=tuple(dict.fromkeys(ids)))
    touched = {c.id for c in diff.diff(base, new) if c.name is not None}
    ids = [c.id for content in (new, base) for c in content.cards
           if c.id in touched and c.kind in ("policy", "advisor")]
    return ValuePlan(cards=tuple(sorted(set(ids))))


def _load_revision(folder: str, rev: str, include_tbd: bool, only_designed: bool, stack: ExitStack) -> tuple[str, Content]:
    """The content folder as it was at rev, written out to a temporary folder that lasts the command."""
    into = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="rulekit-base-")))
    revision = extract(folder, rev, into)
    label = revision.label
    try:
        return label, load_content(into, include_tbd=include_tbd, only_designed=only_designed)
    except ContentError as err:
        errors = [d for d in err.diagnostics if d.severity == "error"]
        for d in errors:
            echo(concise(d.at(_named(d.file, into, revision.asked, revision.inside))), err=True)
        echo(f"The content at {label} has {len(errors)} error(s), so there is nothing to compare with; `git checkout"
             f" {rev} -- {revision.inside or '.'}` in a copy of the repository and `rulekit lint` explain each."
             f" / 该版本的内容有错误", err=True)
        raise SystemExit(1) from None


def _named(file: str, root: Path, rev: str, inside: str) -> str:
    """A file of the written-out folder as REV:path, the way git names it."""
    try:
        rel = Path(file).relative_to(root).as_posix()
    except ValueError:
        return file
    return f"{rev}:{inside + '/' if inside else ''}{'' if rel == '.' else rel}"


def _run(sides: tuple[C.Side, C.Side], results: Path, out: Path, jobs: int, backend: str, scheduler: str | None,
         quiet: bool) -> dict:
    titles = {"base": "基准 base", "new": "新 new"}
    views: list = []

    def view(role: str):
        shown = _view(quiet)
        shown.title = titles[role]
        views.append(shown)
        return shown

    try:
        C.play(sides, results, jobs=jobs, backend=backend, scheduler=scheduler, view=view)
        for shown in views:
            shown.stop()
        record = C.compare(*sides, results)
        _write(out, "compare.json", C.dumps(record), results)
        _write(out, "compare.html", compare_report.render(record), results)
    except (BatchError, StoreError, C.CompareError) as err:
        for shown in views:
            shown.stop()
        echo(str(err), err=True)
        sys.exit(1)
    except KeyboardInterrupt:
        for shown in views:
            shown.stop()
        click.echo(f"\n已中断 / interrupted: finished games are saved in {results}; run the same command to go on.",
                   err=True)
        sys.exit(130)
    return record


def _write(out: Path, name: str, text: str, results: Path) -> None:
    """Write OUT/name whole, or say why not: the games are safe, and running again writes it without playing."""
    try:
        out.mkdir(parents=True, exist_ok=True)
        write_atomic(out / name, text)
    except OSError as err:
        raise StoreError(f"cannot write {out / name} ({err.strerror or type(err).__name__}) / 无法写入该文件。 Every"
                         f" game is safe in {results}; fix the folder or choose another --out, and run the same"
                         f" command again: it plays nothing more.") from None


def _tell(record: dict, out: Path) -> None:
    """The content change and what changed in the games, as the report opens."""
    echo(f"基准 base: {record['base']['content']}  ·  新 new: {record['new']['content']}  ·  {record['games']} 局 games")
    echo("内容改动 / content changes:")
    for line in compare_report.content_lines(record):
        echo(f"  {line}")
    edited = compare_report.edited_lines(record)
    if edited:
        echo("改动的牌 / the cards you changed:")
        for zh, en in edited[:MAX_SHOWN]:
            echo(f"  {zh}\n  {en}")
        if len(edited) > MAX_SHOWN:
            echo(f"  … 另有 {len(edited) - MAX_SHOWN} 项 / {len(edited) - MAX_SHOWN} more in the report")
    for role in ("base", "new"):
        side = record[role]
        if side["errors"]:
            first = side["first_error"]
            echo(f"{role}: {side['errors']} 局出错 games stopped on an error ({first['card'] or 'unknown card'});"
                 f" the first, game {first['game']}, seed {first['seed']}: {first['message']}")
    flagged = record["flagged"]
    echo(f"对局的变化 / what changed ({len(flagged)}; {record['games_differing']} of {record['games']} games differ):")
    for f in flagged[:MAX_SHOWN]:
        echo(f"  {f['zh']}\n  {f['en']}")
    if len(flagged) > MAX_SHOWN:
        echo(f"  … 另有 {len(flagged) - MAX_SHOWN} 项 / {len(flagged) - MAX_SHOWN} more in the report")
    if not flagged:
        echo(f"  {compare_report.nothing_words(record)}")
    echo(f"报告 / report: {out / 'compare.html'}")

"""`rulekit lint` and `rulekit rule`: parse options, run the linter, render, choose the exit code."""

from __future__ import annotations

import sys
from pathlib import Path

import click

import rulekit
from rulekit.console import Command
from rulekit.content.loader import SCENARIO_SUFFIX, scenario_owner
from rulekit.lint import render
from rulekit.lint.filters import Selection, SelectorError, parse_selectors
from rulekit.lint.rules import RULES, closest, get

DEFAULT_PATH = Path("content")
# --list: the heading over the cards, for one card and for several ({n}: how many), and when there is none.
LISTS = {
    "proposed": ("1 proposed card awaits your decision (keep it by deleting its `status: proposed` line, "
                 "or rewrite it):",
                 "{n} proposed cards await your decision (keep one by deleting its `status: proposed` line, "
                 "or rewrite it):",
                 "no proposed cards: every card is decided"),
    "tbd": ("1 card is marked tbd: it has no effect yet, so it is left out of the decks (write its effect, "
            "then delete the `status: tbd` line):",
            "{n} cards are marked tbd: they have no effect yet, so they are left out of the decks (write an "
            "effect, then delete the `status: tbd` line):",
            "no cards marked tbd"),
}
EXIT_CLEAN, EXIT_PROBLEMS, EXIT_USAGE = 0, 1, 2


def _stdout_is_terminal() -> bool:
    return bool(getattr(sys.stdout, "isatty", lambda: False)())


def _console():
    from rich.console import Console
    return Console(file=sys.stdout, force_terminal=True, highlight=False, soft_wrap=True)


@click.command(cls=Command)
@click.argument("paths", nargs=-1, type=click.Path(exists=True, path_type=Path))
@click.option("--content", "content_dir", type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="要检查的内容文件夹（与写在 PATHS 中相同） / The content folder to check (the same as giving it as a PATH).")
@click.option("--output-format", type=click.Choice(render.FORMATS), default="full", show_default=True,
              help="full：每个问题连同源代码行；concise：每个一行；json、sarif、github：供工具和 CI 使用 / "
                   "full: each problem with its source line; concise: one line each; "
                   "json, sarif, github: for tools and CI.")
@click.option("--select", multiple=True, metavar="CODES",
              help="只看这些代码或前缀，逗号分隔（RK2,RK301），可重复 / "
                   "Only these codes or prefixes, comma-separated (RK2,RK301). Repeatable.")
@click.option("--ignore", multiple=True, metavar="CODES",
              help="不看这些代码或前缀，逗号分隔，可重复 / "
                   "Not these codes or prefixes, comma-separated. Repeatable.")
@click.option("--exit-zero", is_flag=True, help="发现问题也以 0 退出 / Exit 0 even when problems are found.")
@click.option("--no-cache", is_flag=True,
              help="重新检查每个文件，不读也不写缓存 / Check every file again, without reading or writing the cache.")
@click.option("--list", "list_status", type=click.Choice(LISTS),
              help="只列出仍待你决定的卡牌（proposed 提案牌或 tbd 待定牌），每张附文件:行 / "
                   "Only list the cards still waiting for your decision (proposed or tbd), each with file:line.")
@click.pass_context
def lint(ctx: click.Context, paths: tuple[Path, ...], content_dir: Path | None, output_format: str,
         select: tuple[str, ...], ignore: tuple[str, ...], exit_zero: bool, no_cache: bool,
         list_status: str | None) -> None:
    """检查内容：YAML、卡牌字段、效果和整个文件夹 / Check content: YAML, card fields, effects, and the folder as a whole.

    \b
    PATHS 是内容文件夹、类别文件夹或单个 YAML 文件（默认 content/，也可用 --content）。
    单个文件会连同它的内容文件夹一起检查，对其他牌的引用才能解析；只显示所给路径的问题。

    PATHS are content folders, kind folders or single YAML files (default: content/).
    A file is checked together with its content folder, so references to other cards
    resolve; only the problems of the paths given are shown.

    \b
    在一行加注释 `# rulekit: noqa: RK201` 可让该行不报这个代码（多个代码：
    `noqa: RK201, RK202`；所有代码：`# rulekit: noqa`），YAML 和效果中都可以。

    Silence a code on one line with a comment `# rulekit: noqa: RK201` (several codes:
    `noqa: RK201, RK202`; every code: `# rulekit: noqa`), in the YAML or in the effect.

    \b
    `rulekit rule RK201` 解释一个代码。每个文件的结果以纯 JSON 缓存在你的缓存文件夹
    （~/.cache/rulekit/lint、$XDG_CACHE_HOME/rulekit/lint 或 $RULEKIT_CACHE_DIR），
    按文件的字节作键；缓存中没有任何东西能运行代码。

    `rulekit rule RK201` explains a code. Each file's results are cached as plain JSON
    in your cache folder (~/.cache/rulekit/lint, or $XDG_CACHE_HOME/rulekit/lint, or
    $RULEKIT_CACHE_DIR), keyed by the file's bytes; nothing in it can run code.

    \b
    退出码：0 没有错误或警告（只有提示也算）；1 发现错误或警告；2 选项有误或内部错误。

    Exit status: 0 no errors or warnings (notes alone are fine), 1 errors or warnings
    found, 2 a wrong option or an internal error.

    \b
    `--list proposed` 列出每张提案牌（`status: proposed`），`--list tbd` 列出每张待定牌，不做其他检查。

    `--list proposed` names every proposed card (`status: proposed`), `--list tbd` every
    tbd card, and checks nothing else.
    """
    if content_dir is not None:
        paths = (*paths, content_dir)
    if not paths:
        if not DEFAULT_PATH.is_dir():
            raise click.UsageError("there is no content/ folder here; give the folder to check, "
                                   "such as `rulekit lint path/to/content`")
        paths = (DEFAULT_PATH,)
    for path in paths:
        if path.name.endswith(SCENARIO_SUFFIX) or scenario_owner(path) is not None:
            what = "holds scenario files" if path.is_dir() else "is a scenario file"
            raise click.UsageError(f"{path} {what}, not cards: `rulekit test {path}` checks and runs scenarios "
                                   "(`rulekit lint` checks the cards of a content folder)")
    if list_status is not None:
        unused = [name for name, given in (("--output-format", output_format != "full"), ("--select", select),
                                           ("--ignore", ignore), ("--exit-zero", exit_zero)) if given]
        if unused:
            raise click.UsageError(f"--list prints the cards one a line and checks nothing, so it takes no "
                                   f"{' or '.join(unused)}; run `rulekit lint` without --list for those")
        ctx.exit(_list(paths, list_status))
    try:
        selection = Selection(parse_selectors(select, "--select", RULES), parse_selectors(ignore, "--ignore", RULES))
    except SelectorError as err:
        raise click.UsageError(str(err)) from None
    from rulekit.lint.run import lint as run_lint

    try:
        report = run_lint(paths, selection, use_cache=not no_cache)
        _show(report, output_format)
    except Exception as err:  # one clear line for the designer, never a traceback
        detail = " ".join(str(err).split())[:200]
        click.echo(f"rulekit lint: internal error ({type(err).__name__}: {detail}). "
                   "This is a bug in rulekit, not in your cards; please report it.", err=True)
        ctx.exit(EXIT_USAGE)
    problems = report.count("error") + report.count("warning")
    ctx.exit(EXIT_PROBLEMS if problems and not exit_zero else EXIT_CLEAN)


def _list(paths: tuple[Path, ...], status: str) -> int:
    """Print the cards of the paths marked with the status, one a line; return the exit status."""
    from rulekit.content.loader import cards_marked
    from rulekit.language.diagnostics import concise

    cards, unreadable = cards_marked(paths, status)
    one, several, none = LISTS[status]
    click.echo(none if not cards else one if len(cards) == 1 else several.format(n=len(cards)))
    for card in cards:
        label = f"{card.name} ({card.id})" if card.name and card.id else card.name or card.id or "(no id or name)"
        kind = f"stage {card.stage} policy" if card.stage is not None else card.kind
        click.echo(f"  {card.file}:{card.line}: {label}, {kind}")
    for d in unreadable:
        click.echo(concise(d))
    if unreadable:
        click.echo("The cards of these files are unknown, so they are not listed; `rulekit lint` explains each.")
    return EXIT_PROBLEMS if unreadable else EXIT_CLEAN


def _show(report, output_format: str) -> None:
    diags = report.diagnostics
    if output_format == "json":
        click.echo(render.as_json(diags))
        return
    if output_format == "sarif":
        click.echo(render.as_sarif(diags, list(RULES.values()), rulekit.__version__))
        return
    if output_format == "github":
        for d in diags:
            click.echo(render.github_line(d))
    elif output_format == "concise":
        for d in diags:
            click.echo(render.concise_line(d))
    else:
        _show_full(report)
    click.echo(render.summary(diags, report.files))


def _show_full(report) -> None:
    if _stdout_is_terminal():
        from rich.text import Text
        console = _console()

        def emit(segments: render.Segments) -> None:
            console.print(Text.assemble(*((text, style or "") for text, style in segments)))
    else:
        def emit(segments: render.Segments) -> None:
            click.echo("".join(text for text, _ in segments))

    for d in report.diagnostics:
        for segments in render.full_lines(d, report.lines):
            emit(segments)
        emit([])


@click.command(cls=Command)
@click.argument("code", required=False)
def rule(code: str | None) -> None:
    """解释一个诊断代码，如 RK101（不给 CODE 则列出全部） / Explain a diagnostic code, such as RK101 (without CODE: list every
    code)."""
    if code is None:
        width = max(len(r.severity) for r in RULES.values())
        for r in RULES.values():
            click.echo(f"{r.code}  {r.severity:<{width}}  {r.title}")
        return
    found = get(code)
    if found is None:
        guess = closest(code)
        tip = f" — did you mean '{guess}'?" if guess else ""
        raise click.UsageError(f"no rule has the code '{code}'{tip} (`rulekit rule` lists them all)")
    text = found.markdown(level=1)
    if _stdout_is_terminal():
        from rich.markdown import Markdown
        _console().print(Markdown(text))
    else:
        click.echo(text.rstrip("\n"))

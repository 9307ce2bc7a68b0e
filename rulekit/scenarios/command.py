"""`rulekit test PATH...`: run scenario files and report (the format: docs/scenarios.md)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from rulekit.console import Command, echo, safe
from rulekit.content.loader import SCENARIO_FOLDER, scenario_owner
from rulekit.language.diagnostics import ContentError, concise
from rulekit.scenarios.reader import ContentSource
from rulekit.scenarios.report import report_lines
from rulekit.scenarios.runner import Result, find_scenarios, run_paths

DEFAULT_CONTENT = Path("content")


@click.command("test", cls=Command)
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@click.option("--content", "content_dir", type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="场景所用的内容文件夹（默认：PATH 本身或其所在的内容文件夹，否则 content） / The content folder "
                   "the scenarios use (default: the content folder PATH is or lies in, else content).")
@click.option("-v", "--verbose", is_flag=True,
              help="显示每一步、每个回答的问题和每条预期 / Show each step, each question answered and each expectation.")
def test_command(paths: tuple[Path, ...], content_dir: Path | None, verbose: bool) -> None:
    """运行 PATH 下的场景文件（*.scenario.yaml） / Run the scenario files (*.scenario.yaml) found under PATH...

    \b
    PATH 若是内容文件夹（如 content），运行它的 scenarios/ 文件夹里的场景，并用这个文件夹的卡牌；
    content/scenarios/ 里的场景文件也用 content 的卡牌。其他场景用 --content 给出的文件夹（默认 content）。

    A PATH that is a content folder (such as content) runs the scenarios in its scenarios/
    folder, with that folder's cards; a scenario file in content/scenarios/ also plays with the
    cards of content. Other scenarios use the --content folder (default: content).
    """
    missing = [path for path in paths if content_folder_of(path) == path and not (path / SCENARIO_FOLDER).is_dir()]
    for path in missing:
        echo(f"{path} has no {SCENARIO_FOLDER}/ folder: a content folder's scenario files (*.scenario.yaml) "
                   f"go in {path / SCENARIO_FOLDER} (docs/scenarios.md)", err=True)
    groups = plan(tuple(p for p in paths if p not in missing), content_dir)
    if not any(find_scenarios(group) for group in groups.values()):
        if not missing:
            searched = [str(path) for group in groups.values() for path in group]
            echo(f"no scenario files (*.scenario.yaml) under {', '.join(searched)}", err=True)
        sys.exit(1)
    results: list[Result] = []
    broken = bool(missing)
    for root, group in groups.items():
        source = ContentSource(root)
        problems = content_problems(source)
        if problems:
            _print(problems)
            broken = True
            continue
        results += run_paths(group, source, verbose=verbose)
    if results:
        _print(report_lines(results, verbose=verbose))
    sys.exit(0 if results and not broken and all(r.passed for r in results) else 1)


def content_folder_of(path: Path) -> Path | None:
    """The content folder a scenario path belongs to: the path itself when it is a content folder (its
    scenarios are in its scenarios/ folder), or the content folder whose scenarios/ folder holds it."""
    if path.is_dir() and (path / "rules.yaml").is_file():
        return path
    return scenario_owner(path)


def plan(paths: tuple[Path, ...], content_dir: Path | None) -> dict[Path, list[Path]]:
    """{content folder: the scenario paths to run against it}, in the order the paths were given."""
    groups: dict[Path, list[Path]] = {}
    for path in paths:
        own = content_folder_of(path)
        scenarios = path / SCENARIO_FOLDER if own == path else path
        groups.setdefault(content_dir or own or DEFAULT_CONTENT, []).append(scenarios)
    return groups


def content_problems(source: ContentSource) -> list[tuple[str, str | None]]:
    """The content folder's own errors, listed once: with them no scenario can run, so none is tried."""
    try:
        source.base()
    except ContentError as err:
        errors = [d for d in err.diagnostics if d.severity == "error"]
        summary = (f"The content in {source.root} has {len(errors)} error{'s' if len(errors) != 1 else ''}, "
                   f"so no scenario can run; `rulekit lint {source.root}` explains each.")
        out: list[tuple[str, str | None]] = [(concise(d), "red") for d in errors]
        return [*out, (summary, "bold red")]
    return []


def _print(lines) -> None:
    if sys.stdout.isatty():
        from rich.console import Console
        from rich.text import Text

        console = Console(highlight=False, soft_wrap=True)
        for text, style in lines:
            console.print(Text(safe(text), style=style or ""))
        return
    for text, _ in lines:
        echo(text)

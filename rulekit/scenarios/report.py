"""The report of a scenario run: one line per scenario, the failures' details, the totals."""

from __future__ import annotations

from rulekit.scenarios.runner import Result


def report_lines(results: list[Result], *, verbose: bool = False) -> list[tuple[str, str | None]]:
    """(text, style) lines; style is a rich style name or None, used only on a terminal."""
    lines: list[tuple[str, str | None]] = []
    for r in results:
        status, style = ("PASS", "green") if r.passed else ("FAIL", "red")
        lines.append((f"{status}  {r.file}  {r.name or '(unreadable)'}", style))
        if verbose:
            lines += [(f"      {t}", "dim") for t in r.trace]
    failed = [r for r in results if not r.passed]
    for r in failed:
        lines.append(("", None))
        what = "is malformed" if r.malformed else "failed"
        title = f"{r.file}  {r.name}" if r.name else r.file
        lines.append((f"{title} {what}:", "bold red"))
        lines += [(f"  {f}", None) for f in r.failures]
    passed = len(results) - len(failed)
    lines.append(("", None))
    lines.append((f"{passed} passed, {len(failed)} failed", "bold green" if not failed else "bold red"))
    return lines

"""Diagnostics -> text: the full, concise, json, sarif and github output formats of `rulekit lint`."""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from typing import Any
from urllib.parse import quote

from rulekit.language.diagnostics import Diagnostic

FORMATS = ("full", "concise", "json", "sarif", "github")

TAB_WIDTH = 4
MAX_SHOWN_WIDTH = 120        # a longer source line is cut around the caret
_LINE_BREAK = re.compile(r"\r\n|[\n\r\x85\u2028\u2029]")   # YAML's line breaks, as PyYAML counts them

# A line of output: segments of (text, rich style or None).
Segments = list[tuple[str, str | None]]
Sources = Callable[[str], Sequence[str] | None]

_STYLE = {"error": "bold red", "warning": "bold yellow", "info": "bold cyan"}
_NOUN = {"error": ("error", "errors"), "warning": ("warning", "warnings"), "info": ("note", "notes")}


def split_lines(text: str) -> list[str]:
    """A file's lines, numbered the way its YAML positions are."""
    return _LINE_BREAK.split(text)


# ---- the width of what a terminal shows ----------------------------------------

def _shown(ch: str) -> tuple[str, int]:
    """How one character is shown in a source excerpt, and how many columns it takes."""
    if ch == "\t":
        return " " * TAB_WIDTH, TAB_WIDTH
    if unicodedata.combining(ch):
        return ch, 0
    category = unicodedata.category(ch)
    if category in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"):
        return "?", 1          # control bytes, invisible marks, undecodable bytes: visible and one wide
    if unicodedata.east_asian_width(ch) in ("W", "F"):
        return ch, 2
    return ch, 1


def visible(text: str) -> str:
    """Text with invisible and control characters (from a broken file) written as U+XXXX."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() or ch == " " else f"U+{ord(ch):04X}" for ch in text)


def display_width(text: str) -> int:
    """Terminal columns `text` takes: East Asian wide characters count as two."""
    return sum(_shown(ch)[1] for ch in text)


def _excerpt(line: str, col: int, end_col: int) -> tuple[str, int, int]:
    """The source line as shown, the caret's offset and its width, both in display columns."""
    start = max(0, min(col - 1, len(line)))
    stop = max(start + 1, min(end_col - 1, len(line))) if end_col > col else start + 1
    first = 0
    if display_width(line) > MAX_SHOWN_WIDTH:
        first = max(0, start - MAX_SHOWN_WIDTH // 3)
        while first < start and display_width(line[first:start]) > MAX_SHOWN_WIDTH // 3:
            first += 1
    shown, offset, width, used = [], 0, 0, 0
    for i, ch in enumerate(line[first:], first):
        text, w = _shown(ch)
        if used + w > MAX_SHOWN_WIDTH:
            shown.append("...")
            break
        if i < start:
            offset += w
        elif i < stop:
            width += w
        shown.append(text)
        used += w
    if stop > len(line):               # a caret just past the end of the line
        width += stop - max(start, len(line))
    prefix = "..." if first else ""
    return prefix + "".join(shown), offset + len(prefix), max(1, width)


# ---- full and concise ------------------------------------------------------------

def where(d: Diagnostic) -> str:
    if d.line:
        return f"{d.file}:{d.line}:{d.col}"
    return d.file or "<content>"


def concise_line(d: Diagnostic) -> str:
    return f"{visible(where(d))}: {d.code} {visible(d.message)}"


def full_lines(d: Diagnostic, sources: Sources) -> list[Segments]:
    """`path:line:col: CODE message`, the source line, a caret under the column, the hint."""
    style = _STYLE.get(d.severity)
    head: Segments = [(visible(where(d)), "bold"), (": ", None), (d.code, style), (" " + visible(d.message), None)]
    out: list[Segments] = [head]
    lines = sources(d.file) if d.line else None
    if lines is not None and 0 < d.line <= len(lines):
        line = lines[d.line - 1]
        end_col = d.end_col if d.end_line == d.line else len(line) + 1
        shown, offset, width = _excerpt(line, d.col, end_col)
        number = str(d.line)
        gutter = " " * len(number)
        out.append([(gutter + " |", "blue")])
        out.append([(number + " | ", "blue"), (shown.rstrip(), None)])
        out.append([(gutter + " | ", "blue"), (" " * offset + "^" * width, style)])
        if d.hint:
            out.append([(gutter + " = ", "blue"), ("help: ", "bold"), (visible(d.hint), None)])
    elif d.hint:
        out.append([("  = ", "blue"), ("help: ", "bold"), (visible(d.hint), None)])
    return out


def summary(diagnostics: Iterable[Diagnostic], files: int) -> str:
    """`2 errors, 1 warning in 6 files`, and `, 3 notes` when there are any."""
    counts = {"error": 0, "warning": 0, "info": 0}
    for d in diagnostics:
        counts[d.severity if d.severity in counts else "error"] += 1

    def count(severity: str) -> str:
        n = counts[severity]
        one, many = _NOUN[severity]
        return f"{n} {one if n == 1 else many}"

    text = f"{count('error')}, {count('warning')} in {files} file{'' if files == 1 else 's'}"
    if counts["info"]:
        text += f", {count('info')}"
    return text


# ---- machine formats ---------------------------------------------------------------

def as_json(diagnostics: Sequence[Diagnostic]) -> str:
    return json.dumps([
        {"file": d.file, "line": d.line, "column": d.col, "end_line": d.end_line, "end_column": d.end_col,
         "code": d.code, "severity": d.severity, "message": d.message, "hint": d.hint}
        for d in diagnostics], ensure_ascii=False, indent=2)


_SARIF_LEVEL = {"error": "error", "warning": "warning", "info": "note"}


def _region(d: Diagnostic) -> dict | None:
    if d.line < 1:
        return None
    col = max(1, d.col)
    end_line, end_col = d.end_line, d.end_col
    if (end_line, end_col) <= (d.line, col):
        end_line, end_col = d.line, col + 1
    return {"startLine": d.line, "startColumn": col, "endLine": end_line, "endColumn": end_col}


def as_sarif(diagnostics: Sequence[Diagnostic], rules: Sequence, version: str) -> str:
    """SARIF 2.1.0, the format code-scanning services read; columns count code points."""
    index = {rule.code: i for i, rule in enumerate(rules)}
    results = []
    for d in diagnostics:
        location: dict = {"artifactLocation": {"uri": quote(d.file.replace("\\", "/"))}}
        region = _region(d)
        if region:
            location["region"] = region
        text = d.message + (f"\nhelp: {d.hint}" if d.hint else "")
        result: dict[str, Any] = {"ruleId": d.code, "level": _SARIF_LEVEL.get(d.severity, "error"),
                  "message": {"text": text}, "locations": [{"physicalLocation": location}]}
        if d.code in index:
            result["ruleIndex"] = index[d.code]
        results.append(result)
    driver = {
        "name": "rulekit",
        "version": version,
        "rules": [{"id": r.code, "name": r.name,
                   "shortDescription": {"text": r.title},
                   "fullDescription": {"text": r.what},
                   "help": {"text": r.markdown(), "markdown": r.markdown()},
                   "defaultConfiguration": {"level": _SARIF_LEVEL[r.severity]}} for r in rules],
    }
    log = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{"tool": {"driver": driver}, "columnKind": "unicodeCodePoints", "results": results}],
    }
    return json.dumps(log, ensure_ascii=False, indent=2)


_GITHUB_LEVEL = {"error": "error", "warning": "warning", "info": "notice"}


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def github_line(d: Diagnostic) -> str:
    """A GitHub Actions workflow command, which shows as an annotation on the pull request."""
    props = [f"file={_escape_property(visible(d.file))}"]
    region = _region(d)
    if region:
        props += [f"line={region['startLine']}", f"col={region['startColumn']}",
                  f"endLine={region['endLine']}", f"endColumn={region['endColumn']}"]
    props.append(f"title={_escape_property(d.code)}")
    text = visible(d.message) + (f"\nhelp: {visible(d.hint)}" if d.hint else "")
    return f"::{_GITHUB_LEVEL.get(d.severity, 'error')} {','.join(props)}::{_escape_data(text)}"

"""The text of an open file as the editor has it: lines, positions, and where effect text stands.

Everything here reads lines only (never YAML), so it answers on a half-typed file too: the effect
regions are found the way the editor grammar (editors/vscode/syntaxes) finds them, by the `effect:`,
`when:` and unlock keys and the indentation under them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
# `effect: |`, `- when: >-`, `effect: |  # comment`: a block scalar's header line.
_BLOCK = re.compile(r"^(?P<indent>[ ]*)(?:-[ ]+)*(?P<key>[A-Za-z_][A-Za-z0-9_]*)[ ]*:[ ]*[|>][-+0-9]*[ ]*(?:#.*)?$")
# `when: played("x") and happened("y")`: a plain or quoted scalar on the key's own line.
_INLINE = re.compile(r"^(?P<indent>[ ]*)(?:-[ ]+)*(?P<key>[A-Za-z_][A-Za-z0-9_]*)[ ]*:[ ]+(?P<value>[^|>#\s].*)$")
EFFECT_KEYS = ("effect", "when")
RULES_KEYS = ("stage2", "stage3")          # rules.yaml's unlock conditions

# The effect language's tokens, as far as colouring, hover and completion need them.
TOKEN = re.compile(r"(?P<comment>#.*)|(?P<string>\"[^\"\n]*\"?|'[^'\n]*'?)|(?P<number>\d+)"
                   r"|(?P<word>[A-Za-z_][A-Za-z0-9_]*)|(?P<op>//|[-+*/<>=!]=?|[():,\[\]])")


def split(text: str) -> list[str]:
    """The lines as LSP numbers them (\\n, \\r\\n or \\r ends one)."""
    return _LINE_BREAK.split(text)


def utf16(line: str, col: int) -> int:
    """A 0-based column in code points -> the UTF-16 units LSP counts."""
    head = line[:col]
    return col + sum(1 for ch in head if ord(ch) > 0xFFFF)


def from_utf16(line: str, units: int) -> int:
    """A column in UTF-16 units -> code points (0-based)."""
    count = 0
    for i, ch in enumerate(line):
        if count >= units:
            return i
        count += 2 if ord(ch) > 0xFFFF else 1
    return len(line)


@dataclass(frozen=True)
class Region:
    """Effect text: lines first..last (0-based, inclusive), from column `col` on the first line (an inline
    value) or from the start of each line (a block)."""

    key: str
    first: int
    last: int
    col: int = 0

    def holds(self, line: int) -> bool:
        return self.first <= line <= self.last


def regions(lines: list[str], rules_file: bool = False) -> list[Region]:
    """Every stretch of effect text in the file: `effect:` and `when:` values, and in rules.yaml the unlock
    conditions."""
    keys = EFFECT_KEYS + (RULES_KEYS if rules_file else ())
    out: list[Region] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        block = _BLOCK.match(line)
        if block and block["key"] in keys:
            key_col = line.index(block["key"])
            last = i
            j = i + 1
            while j < len(lines) and (not lines[j].strip() or _indent(lines[j]) > key_col):
                if _indent(lines[j]) > key_col:      # text, or the indented blank line being typed on
                    last = j
                j += 1
            if last > i:
                out.append(Region(block["key"], i + 1, last))
            i = last + 1
            continue
        inline = _INLINE.match(line)
        if inline and inline["key"] in keys:
            out.append(Region(inline["key"], i, i, inline.start("value")))
        i += 1
    return out


def region_at(found: list[Region], line: int) -> Region | None:
    return next((r for r in found if r.holds(line)), None)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


@dataclass(frozen=True)
class Token:
    kind: str            # comment, string, number, word, op
    text: str
    line: int            # 0-based
    col: int             # 0-based, code points


def tokens(lines: list[str], region: Region) -> list[Token]:
    """The tokens of one region's effect text, in order."""
    out: list[Token] = []
    for n in range(region.first, region.last + 1):
        line = lines[n]
        start = region.col if n == region.first else 0
        for m in TOKEN.finditer(line, start):
            kind = m.lastgroup or "op"
            out.append(Token(kind, m.group(), n, m.start()))
    return out


def token_at(lines: list[str], region: Region, line: int, col: int) -> tuple[Token | None, list[Token]]:
    """The token under (or just before) the cursor, and the tokens of its line up to it."""
    on_line = [t for t in tokens(lines, region) if t.line == line]
    for i, t in enumerate(on_line):
        if t.col <= col <= t.col + len(t.text):
            return t, on_line[:i]
    return None, [t for t in on_line if t.col + len(t.text) <= col]


def word_at(line: str, col: int) -> tuple[str, int] | None:
    """The word (letters, digits, _) under the cursor, and where it starts."""
    for m in re.finditer(r"[A-Za-z_][A-Za-z0-9_]*", line):
        if m.start() <= col <= m.end():
            return m.group(), m.start()
    return None


def quoted_at(line: str, col: int) -> tuple[str, int, int] | None:
    """The text inside the quotes under the cursor, with where it starts and ends (an open quote counts)."""
    for m in re.finditer(r"\"([^\"\n]*)(\"|$)|'([^'\n]*)('|$)", line):
        if m.start() < col <= m.end():
            inner = m.group(1) if m.group(1) is not None else m.group(3)
            return inner, m.start() + 1, m.start() + 1 + len(inner)
    return None

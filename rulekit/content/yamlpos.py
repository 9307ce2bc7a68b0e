"""YAML with positions: every key's and value's line and column kept, duplicate keys rejected."""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from rulekit import registry
from rulekit.diagnostics import R
from rulekit.language.diagnostics import Diagnostic
from rulekit.language.parser import Origin

Path_ = tuple[Any, ...]          # keys and list indexes from the document's root
# A file is read only up to this size, and its aliases (`*name`) may not write it out past it:
# one anchored effect repeated a hundred times would otherwise be checked a hundred times.
MAX_BYTES = registry.LIMITS["file_size"].value
MAX_VALUES = registry.LIMITS["yaml_values"].value
_BREAKS = "\r\n\x85\u2028\u2029"
_PLAIN_TAGS = ("tag:yaml.org,2002:seq", "tag:yaml.org,2002:map")


@dataclass(frozen=True)
class Span:
    """A stretch of a file: 1-based lines and columns, end exclusive."""

    line: int
    col: int
    end_line: int
    end_col: int


@dataclass(frozen=True)
class ValueInfo:
    """Where a value stands, and where its text starts (for effects and conditions)."""

    span: Span
    style: str | None = None     # '|' '>' '"' "'" for scalars so written, None otherwise
    text_line: int = 0           # line of the text's first character (block scalars: after the header)
    text_col: int = 0
    indent: int | None = None    # block scalars: the indentation YAML strips from each line


@dataclass(frozen=True)
class Located:
    """A YAML document as plain Python data, with the position of every value and key."""

    data: Any
    file: str
    values: Mapping[Path_, ValueInfo] = field(default_factory=dict)
    keys: Mapping[Path_, Span] = field(default_factory=dict)

    @classmethod
    def plain(cls, data: Any, file: str = "") -> Located:
        """Data without positions (built in Python rather than read from a file)."""
        return cls(data, file)

    def span(self, path: Path_ = ()) -> Span | None:
        """The value's span, or the nearest enclosing value's."""
        path = tuple(path)
        while True:
            info = self.values.get(path)
            if info is not None:
                return info.span
            if not path:
                return None
            path = path[:-1]

    def key_span(self, path: Path_) -> Span | None:
        return self.keys.get(tuple(path)) or self.span(path)

    def origin(self, path: Path_) -> Origin:
        """Where the text of a scalar starts, for parse_effect / parse_expression."""
        info = self.values.get(tuple(path))
        if info is None or not info.text_line:
            span = self.span(path)
            return Origin(self.file, span.line, span.col) if span else Origin(self.file)
        return Origin(self.file, info.text_line, info.text_col, info.indent)

    def sub(self, path: Path_) -> Located:
        """The value at path, re-rooted: its own paths start at ()."""
        path = tuple(path)
        data = self.data
        for key in path:
            data = data[key]
        n = len(path)
        values = {p[n:]: v for p, v in self.values.items() if p[:n] == path}
        keys = {p[n:]: v for p, v in self.keys.items() if p[:n] == path and len(p) > n}
        return Located(data, self.file, values, keys)


# ---- reading ------------------------------------------------------------------------

def read_yaml(path: str | Path, file: str | None = None) -> tuple[Located | None, list[Diagnostic]]:
    """Read a YAML file; problems come back as diagnostics, never as exceptions."""
    label = file if file is not None else str(path)
    raw, problem = read_bytes(path, label)
    if problem:
        return None, [problem]
    return parse_bytes(raw, label)


def read_bytes(path: str | Path, file: str) -> tuple[bytes, Diagnostic | None]:
    """A plain file's bytes, read once and never past the size limit (RK005 or RK017 otherwise)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))     # a FIFO must not hang the read
    except OSError as err:
        return b"", _unreadable(err, file)
    try:
        with os.fdopen(fd, "rb") as f:
            info = os.fstat(f.fileno())
            if not stat.S_ISREG(info.st_mode):
                return b"", Diagnostic.of(R.UNREADABLE_FILE, "cannot read this file: it is not a plain file", file)
            raw = f.read(MAX_BYTES + 1)
    except OSError as err:
        return b"", _unreadable(err, file)
    if len(raw) > MAX_BYTES:
        return b"", Diagnostic.of(R.FILE_TOO_LARGE,
                                  f"this file is {_size(max(info.st_size, len(raw)))}: rulekit reads files of at most "
                                  f"{MAX_BYTES:,} bytes (the limit `file_size`)", file,
                                  hint="split its cards into several files, or cut what is not a card out of it")
    return raw, None


def _unreadable(err: OSError, file: str) -> Diagnostic:
    return Diagnostic.of(R.UNREADABLE_FILE, f"cannot read this file: {err.strerror or err}", file)


def _size(size: int) -> str:
    return f"{size:,} bytes" if size < 10_000_000 else f"{size / 1_000_000:,.0f} MB"


def parse_bytes(raw: bytes, file: str) -> tuple[Located | None, list[Diagnostic]]:
    """A file's bytes as YAML with positions (RK002 when they are not UTF-8 text)."""
    text, problem = decode(raw, file)
    if problem:
        return None, [problem]
    return parse_yaml(text, file)


def decode(raw: bytes, file: str) -> tuple[str, Diagnostic | None]:
    """UTF-8 text (a BOM is allowed), or RK002 at the first byte that is not."""
    try:
        return raw.decode("utf-8-sig"), None
    except UnicodeDecodeError as err:
        line = raw.count(b"\n", 0, err.start) + 1
        col = err.start - (raw.rfind(b"\n", 0, err.start) + 1) + 1
        return "", Diagnostic.of(R.NOT_UTF8,
                                 "this file is not UTF-8 text (is it binary, or saved in another encoding such as GBK?)",
                                 file, line, col, line, col + 1, hint="save the file as UTF-8")


def parse_yaml(text: str, file: str = "<yaml>") -> tuple[Located | None, list[Diagnostic]]:
    """Parse YAML text; an empty document gives Located(data=None)."""
    loader = None
    try:
        loader, node = _compose(text)
        if node is None:
            return Located(None, file), []
        builder = _Builder(loader, text, file)
        data = builder.convert(node, ())
    except _Problem as err:
        line, col = err.mark.line + 1, err.mark.column + 1
        return None, [Diagnostic.of(err.code, err.message, file, line, col, line, col + 1, err.hint)]
    except yaml.MarkedYAMLError as err:
        return None, [_syntax(err, text, file)]
    except yaml.reader.ReaderError as err:
        return None, [_reader_problem(err, text, file)]
    except yaml.YAMLError as err:
        return None, [Diagnostic.of(R.YAML_SYNTAX, f"YAML cannot read this file: {err}", file, 1, 1, 1, 2)]
    except RecursionError:
        return None, [Diagnostic.of(R.YAML_SYNTAX, "this file is nested too deeply", file, 1, 1, 1, 2)]
    finally:
        if loader is not None:
            loader.dispose()
    if builder.diags:
        return None, builder.diags
    return Located(data, file, builder.values, builder.keys), []


class _Problem(Exception):
    """A value YAML can parse but rulekit will not take; carries its own plain message."""

    def __init__(self, message: str, mark, code: R = R.YAML_SYNTAX, hint: str | None = None):
        super().__init__(message)
        self.message = message
        self.mark = mark
        self.code = code
        self.hint = hint


# ---- composing, aliases counted --------------------------------------------------------

_TOO_BIG_HINT = "write each card out in full instead of repeating it with `*name`, or split the file"


class _Size:
    """The values and characters of text a document holds with every alias written out."""

    def __init__(self) -> None:
        self.values = 0
        self.chars = 0
        self.known: dict[int, tuple[int, int]] = {}     # id(node) -> its size, aliases written out
        self.active: set[int] = set()

    def of(self, node: Node, mark=None) -> tuple[int, int]:
        """A composed node's size (mark: where the alias to it stands, for the message on a loop)."""
        done = self.known.get(id(node))
        if done is not None:
            return done
        composing = not isinstance(node, ScalarNode) and node.end_mark is None
        if composing or id(node) in self.active:
            raise _Problem("an alias refers to the value that contains it", mark or node.start_mark)
        if isinstance(node, ScalarNode):
            size = (1, len(node.value))
        else:
            self.active.add(id(node))
            items = node.value if isinstance(node, SequenceNode) else [n for pair in node.value for n in pair]
            values, chars = 1, 0
            for item in items:
                v, c = self.of(item, mark)
                values, chars = values + v, chars + c
            self.active.discard(id(node))
            size = (values, chars)
        self.known[id(node)] = size
        return size

    def add(self, size: tuple[int, int], mark, alias: str | None = None) -> None:
        """Count a value (or an alias's whole value) in; past a limit, the problem is at `mark`."""
        self.values += size[0]
        self.chars += size[1]
        if self.values <= MAX_VALUES and self.chars <= MAX_BYTES:
            return
        what = (f"more than {MAX_VALUES:,} values (the limit `yaml_values`)" if self.values > MAX_VALUES
                else f"more than {MAX_BYTES:,} characters of text (the limit `file_size`)")
        if alias is None:
            raise _Problem(f"this file holds {what}", mark, R.FILE_TOO_LARGE, "split its cards into several files")
        repeats = (f"a text of {size[1]:,} characters" if size[0] == 1
                   else f"{size[0]:,} values ({size[1]:,} characters of text)")
        raise _Problem(f"the alias *{alias} repeats {repeats}: written out, this file would hold {what}",
                       mark, R.FILE_TOO_LARGE, _TOO_BIG_HINT)


class _Loader(yaml.SafeLoader):
    """SafeLoader used only to compose nodes and to construct single scalars; it counts every value
    as it is composed, an alias as the whole value it repeats, and stops at the first past a limit."""

    def __init__(self, text: str):
        super().__init__(text)
        self.expanded = _Size()

    def compose_node(self, parent, index):
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            target = self.anchors.get(event.anchor)
            if target is not None:
                self.expanded.add(self.expanded.of(target, event.start_mark), event.start_mark, event.anchor)
        return super().compose_node(parent, index)

    def compose_scalar_node(self, anchor):
        node = super().compose_scalar_node(anchor)
        self.expanded.add((1, len(node.value)), node.start_mark)
        return node

    def compose_sequence_node(self, anchor):
        self.expanded.add((1, 0), self.peek_event().start_mark)
        return super().compose_sequence_node(anchor)

    def compose_mapping_node(self, anchor):
        self.expanded.add((1, 0), self.peek_event().start_mark)
        return super().compose_mapping_node(anchor)


_FastLoader = getattr(yaml, "CSafeLoader", None)


def _compose(text: str):
    """Compose with libyaml when it is there (about twice as fast); on any problem compose
    again in pure Python, so every message and position comes from one reader."""
    if _FastLoader is not None:
        fast = _FastLoader(text)
        try:
            node = fast.get_single_node()
            if node is None or _within_limits(node):
                return fast, node
        except yaml.YAMLError:
            pass
        fast.dispose()
    loader = _Loader(text)
    return loader, loader.get_single_node()


def _within_limits(node: Node) -> bool:
    """Whether a document libyaml composed is within the limits, aliases written out (if not, the
    pure-Python composer finds the alias or value that crosses one, and where it stands)."""
    try:
        values, chars = _Size().of(node)
    except _Problem:
        return False
    return values <= MAX_VALUES and chars <= MAX_BYTES


def _span(node: Node) -> Span:
    s, e = node.start_mark, node.end_mark
    return Span(s.line + 1, s.column + 1, e.line + 1, e.column + 1)


class _Builder:
    """Nodes -> plain data, recording positions and rejecting duplicate keys."""

    def __init__(self, loader: _Loader, text: str, file: str):
        self.loader = loader
        self.text = text
        self.file = file
        self.values: dict[Path_, ValueInfo] = {}
        self.keys: dict[Path_, Span] = {}
        self.diags: list[Diagnostic] = []

    def convert(self, node: Node, path: Path_, key_col: int = 0) -> Any:
        """The node as plain data (the composer has made sure it holds no loop and fits the limits)."""
        if isinstance(node, ScalarNode):
            self.values[path] = self.scalar_info(node, key_col)
            return self.scalar(node)
        self.values[path] = ValueInfo(_span(node))
        if node.tag not in _PLAIN_TAGS:
            raise _Problem(f"the YAML tag '{node.tag}' is not allowed in content", node.start_mark)
        if isinstance(node, SequenceNode):
            return [self.convert(item, (*path, i), node.start_mark.column) for i, item in enumerate(node.value)]
        if isinstance(node, MappingNode):
            return self.mapping(node, path)
        return None

    def scalar(self, node: ScalarNode) -> Any:
        try:
            return self.loader.construct_object(node, deep=True)
        except yaml.constructor.ConstructorError:
            raise _Problem(f"the YAML tag '{node.tag}' is not allowed in content", node.start_mark) from None
        except Exception as err:  # a value YAML resolved but cannot build, such as a date 2024-13-45
            raise _Problem(f"cannot read the value '{node.value}': {err}", node.start_mark) from None

    def mapping(self, node: MappingNode, path: Path_) -> dict:
        out: dict = {}
        first: dict[str, Node] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, ScalarNode):
                raise _Problem("a key must be a plain word, not a list or a mapping", key_node.start_mark)
            key = key_node.value
            if key in first:
                self.duplicate(key, key_node, first[key])
                continue
            first[key] = key_node
            self.keys[(*path, key)] = _span(key_node)
            out[key] = self.convert(value_node, (*path, key), key_node.start_mark.column)
        return out

    def duplicate(self, key: str, node: Node, first: Node) -> None:
        sp = _span(node)
        self.diags.append(Diagnostic.of(R.DUPLICATE_KEY,
                                        f"'{key}' is given twice in this mapping (first on line {first.start_mark.line + 1})",
                                        self.file, sp.line, sp.col, sp.end_line, sp.end_col,
                                        hint="keep one of the two; YAML would silently use only one"))

    def scalar_info(self, node: ScalarNode, key_col: int) -> ValueInfo:
        sp = _span(node)
        if node.style in ("|", ">"):
            line, indent = self.block_text(node, key_col)
            return ValueInfo(sp, node.style, line, indent + 1, indent)
        shift = 1 if node.style in ('"', "'") else 0
        return ValueInfo(sp, node.style, sp.line, sp.col + shift, None)

    def block_text(self, node: ScalarNode, key_col: int) -> tuple[int, int]:
        """The line after a `|`/`>` header, and the block's indentation."""
        i = node.start_mark.index
        header_end = _line_end(self.text, i)
        header = self.text[i:header_end].split("#", 1)[0]
        digits = [c for c in header[1:] if c.isdigit()]
        start_line = node.start_mark.line + 2
        if digits:
            return start_line, key_col + int(digits[0])
        j = _next_line(self.text, header_end)
        while j < len(self.text) and j < node.end_mark.index:
            end = _line_end(self.text, j)
            content = self.text[j:end]
            if content.strip(" "):
                return start_line, len(content) - len(content.lstrip(" "))
            j = _next_line(self.text, end)
        return start_line, key_col + 2


def _line_end(text: str, i: int) -> int:
    while i < len(text) and text[i] not in _BREAKS:
        i += 1
    return i


def _next_line(text: str, i: int) -> int:
    if text.startswith("\r\n", i):
        return i + 2
    return i + 1


# ---- plain messages for YAML's errors --------------------------------------------------

_PLAIN = (
    ("found character '\\t'", "a tab character: YAML is indented with spaces only", "replace the tab with spaces"),
    ("could not find expected ':'", "expected 'key: value' — is a ':' missing?", None),
    ("mapping values are not allowed here",
     "a ':' where YAML does not expect one", "put text that contains ': ' in quotes, or use `|` for an effect"),
    ("did not find expected key", "this line does not line up with the keys above it",
     "indent every key of a card by the same number of spaces"),
    ("did not find expected '-' indicator", "this list item does not line up with the items above it", None),
    ("expected a single document", "this file holds more than one YAML document ('---')", "keep one document per file"),
    ("found undefined alias", "this '*name' refers to an anchor that does not exist", None),
    ("found unexpected end of stream", "the file ends inside a quoted text", "close the quote"),
    ("found unknown escape character", "an unknown escape (\\) inside double quotes", "use single quotes, or `|`"),
    ("while scanning an alias", "a '*' starts an alias here", "put text that starts with '*' in quotes"),
    ("while scanning an anchor", "a '&' starts an anchor here", "put text that starts with '&' in quotes"),
    ("found character '@'", "'@' cannot start a value", "put the text in quotes"),
    ("found '<stream end>'", "the file ends before this value is complete", "close every '[' and '{' you opened"),
    ("expected ',' or ']'", "a list in [ ] is not closed, or two items lack a ',' between them",
     "write lists as [a, b, c]"),
    ("expected ',' or '}'", "a mapping in { } is not closed, or two entries lack a ',' between them",
     "write mappings as {key: value, key: value}"),
    ("block sequence entries are not allowed here", "a '- ' list item where a value was expected",
     "start the list on the line after the key, indented"),
    ("found character '`'", "'`' cannot start a value", "put the text in quotes"),
)


_FULL_WIDTH_SIGNS = {"：": ":", "，": ",", "－": "-", "［": "[", "］": "]", "｛": "{", "｝": "}"}


def _syntax(err: yaml.MarkedYAMLError, text: str, file: str) -> Diagnostic:
    full_width = _full_width_sign(err, text, file)
    if full_width is not None:
        return full_width
    problem = err.problem or err.context or "unreadable YAML"
    mark = err.problem_mark or err.context_mark
    if "could not find expected ':'" in problem and err.context_mark is not None:
        mark = err.context_mark
    message, hint = f"YAML cannot read this: {problem}", None
    found = [p for p in _PLAIN if p[0] in problem] or [p for p in _PLAIN if p[0] in (err.context or "")]
    if found:
        message, hint = found[0][1], found[0][2]
    line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
    return Diagnostic.of(R.YAML_SYNTAX, message, file, line, col, line, col + 1, hint=hint)


def _full_width_sign(err: yaml.MarkedYAMLError, text: str, file: str) -> Diagnostic | None:
    """A full-width '：' (or another sign YAML reads only half-width) on a line YAML cannot read:
    named, and pointed at, since it is the likely cause."""
    lines = text.splitlines()
    for mark in (err.context_mark, err.problem_mark):
        if mark is None or mark.line >= len(lines):
            continue
        line = lines[mark.line]
        body = line.split("#", 1)[0]
        found = [(body.find(ch), ch) for ch in _FULL_WIDTH_SIGNS if ch in body]
        if not found:
            continue
        col, ch = min(found)
        return Diagnostic.of(R.YAML_SYNTAX, f"a full-width '{ch}': YAML reads only the half-width '{_FULL_WIDTH_SIGNS[ch]}'",
                             file, mark.line + 1, col + 1, mark.line + 1, col + 2,
                             hint=f"write '{_FULL_WIDTH_SIGNS[ch]}' (followed by a space after a field name), "
                               "switching the keyboard to half-width punctuation")
    return None


def _reader_problem(err: yaml.reader.ReaderError, text: str, file: str) -> Diagnostic:
    pos = max(0, min(err.position, len(text)))
    line = text.count("\n", 0, pos) + 1
    col = pos - (text.rfind("\n", 0, pos) + 1) + 1
    ch = err.character if isinstance(err.character, str) else chr(err.character)
    return Diagnostic.of(R.NOT_UTF8, f"this file contains a control character (U+{ord(ch):04X}); is it a text file?",
                         file, line, col, line, col + 1, hint="save it as plain UTF-8 text")

"""What the server answers, as lsprotocol values: diagnostics, hover, completion, definition, symbols,
semantic tokens and quick fixes. Each function takes the file's lines (as the editor has them) and the
Project (rulekit.lsp.project); none reads YAML, so each answers on a half-typed file.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from lsprotocol import types as T

from rulekit.language.diagnostics import Diagnostic
from rulekit.lsp import text as X
from rulekit.lsp import vocab
from rulekit.lsp.project import CardInfo, Project
from rulekit.registry import PHASES, REACT_MOMENTS, TRIGGERS

SEVERITY = {"error": T.DiagnosticSeverity.Error, "warning": T.DiagnosticSeverity.Warning,
            "info": T.DiagnosticSeverity.Information}
TOKEN_TYPES = ["keyword", "variable", "property", "function", "event", "enumMember", "type", "number", "string",
               "comment", "operator"]
# `played("…")` takes a policy; `event("…")` and `happened("…")` an event.
CARD_CALLS = {"played": ("policy",), "event": ("event",), "happened": ("event",)}
_DID_YOU_MEAN = re.compile(r"did you mean '([^']+)'")
_FIRST_QUOTED = re.compile(r"'([^']+)'")
_NOQA = re.compile(r"#\s*rulekit:\s*noqa\s*:\s*[A-Za-z0-9, ]*[A-Za-z0-9]", re.IGNORECASE)
_HEAD = re.compile(r"^\s*(?:once\s+)?(on|when|react)\b\s*(?P<phrase>[^:]*)")


def docs_link(code: str, base: str) -> str | None:
    from rulekit.lint.rules import get
    rule = get(code)
    return f"{base}#{rule.code.lower()}-{rule.name}" if rule is not None and base else None


def _position(lines: list[str], line: int, col: int) -> T.Position:
    """A 1-based (line, column) of rulekit's -> an LSP position (0-based, UTF-16)."""
    n = min(max(line - 1, 0), max(len(lines) - 1, 0))
    text = lines[n] if lines else ""
    return T.Position(n, X.utf16(text, min(max(col - 1, 0), len(text))))


def diagnostic(d: Diagnostic, lines: list[str], docs: str) -> T.Diagnostic:
    start = _position(lines, d.line or 1, d.col or 1)
    if d.end_line and (d.end_line, d.end_col) > (d.line, d.col):
        end = _position(lines, d.end_line, d.end_col)
    else:
        n = start.line
        text = lines[n] if n < len(lines) else ""
        end = T.Position(n, X.utf16(text, len(text))) if not d.line else T.Position(n, start.character + 1)
        if end.character <= start.character:
            end = T.Position(n, start.character + 1)
    message = d.message + (f"\n{d.hint}" if d.hint else "")
    href = docs_link(d.code, docs)
    return T.Diagnostic(T.Range(start, end), message, severity=SEVERITY.get(d.severity, T.DiagnosticSeverity.Error),
                        code=d.code, source="rulekit",
                        code_description=T.CodeDescription(href) if href else None)


# ---- hover -----------------------------------------------------------------------------------

def _phrase_entries(before: list[X.Token], word: X.Token | None, line: str) -> list[vocab.Entry] | None:
    """A word of a handler's head (`when reveal mild:`, `on income start:`): the phrase's meaning."""
    head = _HEAD.match(line)
    if head is None or word is None or word.col < head.start("phrase"):
        return None
    phrase = " ".join(head["phrase"].split())
    words = vocab.by_word()
    keyword = head.group(1)
    if keyword == "on":
        bare = re.sub(r"\s+(start|end)$", "", phrase)
        return [e for e in words.get(bare, ()) if e.section in ("phase", "handler")] or None
    found = [e for e in words.get(phrase, ()) if e.section in ("trigger", "moment")]
    return found or None


def _word_entries(word: str, before: list[X.Token]) -> list[vocab.Entry]:
    found = list(vocab.by_word().get(word, ()))
    last = before[-1].text if before else ""
    prefer: tuple[str, ...] | None = {"modify": ("quantity",), "shield": ("shieldable",), "seal": ("sealable",),
                                      "skip": ("skippable",), "with": ("superlative",)}.get(last)
    if last.isdigit() or last == "all":
        prefer = ("kind", "track")
    if prefer:
        found.sort(key=lambda e: e.section not in prefer)
    return found


def hover(project: Project | None, lines: list[str], pos: T.Position, rules_file: bool = False) -> T.Hover | None:
    if pos.line >= len(lines):
        return None
    line = lines[pos.line]
    col = X.from_utf16(line, pos.character)
    card = _card_under(project, lines, pos.line, col)
    if card is not None:
        return T.Hover(T.MarkupContent(T.MarkupKind.Markdown, card.summary()))
    region = X.region_at(X.regions(lines, rules_file), pos.line)
    if region is None:
        return None
    token, before = X.token_at(lines, region, pos.line, col)
    if token is None or token.kind != "word":
        return None
    found = _phrase_entries(before, token, line) or _word_entries(token.text, before)
    if not found:
        return None
    rng = T.Range(T.Position(pos.line, X.utf16(line, token.col)),
                  T.Position(pos.line, X.utf16(line, token.col + len(token.text))))
    return T.Hover(T.MarkupContent(T.MarkupKind.Markdown, vocab.markdown(found)), rng)


def _card_under(project: Project | None, lines: list[str], n: int, col: int) -> CardInfo | None:
    """The card named by the quoted text or the id under the cursor (a reference, or the card's own id or name)."""
    if project is None:
        return None
    line = lines[n]
    quoted = X.quoted_at(line, col)
    if quoted is not None and quoted[0]:
        return project.card(quoted[0])
    own = re.match(r"^\s*(?:-\s+)?(id|name)\s*:\s*(\S.*?)\s*(#.*)?$", line)
    if own is not None and col >= own.start(2):
        return project.card(own.group(2).strip("\"'"))
    word = X.word_at(line, col)
    return project.card(word[0]) if word is not None and word[0] not in vocab.by_word() else None


# ---- completion ------------------------------------------------------------------------------

_ITEM_KIND = {"keyword": T.CompletionItemKind.Keyword, "variable": T.CompletionItemKind.Variable,
              "property": T.CompletionItemKind.Property, "function": T.CompletionItemKind.Function,
              "event": T.CompletionItemKind.Event, "enumMember": T.CompletionItemKind.EnumMember,
              "type": T.CompletionItemKind.Class}


def _item(e: vocab.Entry, label: str | None = None) -> T.CompletionItem:
    zh = f" {e.zh}" if e.zh else ""
    return T.CompletionItem(label or e.word, kind=_ITEM_KIND.get(e.token, T.CompletionItemKind.Text),
                            detail=f"{e.section} {e.section_zh}{zh}".strip(),
                            label_details=T.CompletionItemLabelDetails(description=e.zh or None),
                            documentation=T.MarkupContent(T.MarkupKind.Markdown, vocab.markdown([e])),
                            sort_text=f"{_ORDER.get(e.section, 9)}{e.word}")


_ORDER = {"statement": 0, "verb": 1, "track": 2, "count": 3, "value": 3, "keyword": 8}


def _cards(project: Project | None, kinds: tuple[str, ...]) -> list[T.CompletionItem]:
    out: list[T.CompletionItem] = []
    for c in project.cards if project is not None else []:
        if kinds and c.kind not in kinds:
            continue
        for ref, other in ((c.name, c.id), (c.id, c.name)):
            if ref:
                out.append(T.CompletionItem(ref, kind=T.CompletionItemKind.Reference, detail=f"{c.kind} · {other or ''}",
                                            label_details=T.CompletionItemLabelDetails(description=c.name or None),
                                            documentation=T.MarkupContent(T.MarkupKind.Markdown, c.summary())))
    return out


def completion(project: Project | None, lines: list[str], pos: T.Position, rules_file: bool = False) -> T.CompletionList:
    items = _completion(project, lines, pos, rules_file)
    return T.CompletionList(is_incomplete=False, items=items)


def _completion(project: Project | None, lines: list[str], pos: T.Position, rules_file: bool) -> list[T.CompletionItem]:
    if pos.line >= len(lines):
        return []
    line = lines[pos.line]
    col = X.from_utf16(line, pos.character)
    region = X.region_at(X.regions(lines, rules_file), pos.line)
    if region is None:
        return []
    head = line[:col]
    call = re.search(r"\b(played|event|happened)\(\s*[\"']([^\"']*)$", head)
    if call is not None:
        return _cards(project, CARD_CALLS[call.group(1)])
    if re.search(r"[\"'][^\"']*$", head):       # inside another string: nothing of the language
        return []
    words = re.findall(r"[A-Za-z_][A-Za-z0-9_]*|\d+", re.sub(r"[A-Za-z_][A-Za-z0-9_]*$", "", head))
    last = words[-1] if words else ""
    first = words[0] if words else ""
    if first == "once" and len(words) > 1:
        first = words[1]
    if first in ("on", "when", "react") and ":" not in head and "becomes" not in words:
        return _head_items(first, words)                # after `once when becomes`: a condition (below)
    following = {"modify": ("quantity",), "shield": ("shieldable",), "seal": ("sealable",), "skip": ("skippable",),
                 "with": ("superlative",)}.get(last)
    if following:
        return [_item(e) for e in vocab.sections(*following)]
    if last.isdigit() and len(words) > 1 and words[-2] in vocab.by_word():
        return [_item(e) for e in vocab.sections("kind")] + [_item(e) for e in vocab.sections("track")]
    if not words or line[:col].strip() == "":
        return [_item(e) for e in vocab.sections("statement", "verb", "track", "transfer", "keyword")]
    return [_item(e) for e in vocab.sections("track", "count", "value", "function", "predicate", "aggregate", "quantity",
                                             "card value", "keyword")]


def _head_items(first: str, words: list[str]) -> list[T.CompletionItem]:
    after = words[words.index(first) + 1:]
    if first == "on":
        if after and after[-1] in PHASES:
            return [T.CompletionItem(edge, kind=T.CompletionItemKind.Keyword, detail=zh)
                    for edge, zh in (("start", "开始"), ("end", "结束"))]
        return [_item(e) for e in vocab.sections("phase", "handler")]
    if first == "when":
        if after and any(t.startswith(after[0] + " ") for t in TRIGGERS):
            return [_item(e, e.word.split(" ", 1)[1]) for e in vocab.sections("trigger") if e.word.startswith(after[0] + " ")]
        return [_item(e) for e in vocab.sections("trigger")]
    if after and after[0] in PHASES:
        return [_item(e, e.word.split(" ", 1)[1]) for e in vocab.sections("moment") if e.word.startswith(after[0] + " ")]
    return [_item(e) for e in vocab.sections("moment", "trigger") if e.word in REACT_MOMENTS or e.word in TRIGGERS]


# ---- definition and symbols ------------------------------------------------------------------

def _location(c: CardInfo) -> T.Location:
    start = T.Position(max(c.line - 1, 0), 0)
    return T.Location(Path(c.file).as_uri(), T.Range(start, start))


def definition(project: Project | None, lines: list[str], pos: T.Position) -> T.Location | None:
    if pos.line >= len(lines):
        return None
    line = lines[pos.line]
    card = _card_under(project, lines, pos.line, X.from_utf16(line, pos.character))
    return _location(card) if card is not None else None


def symbols(project: Project | None, file: str, lines: list[str]) -> list[T.DocumentSymbol]:
    out = []
    for c in project.cards_of(file) if project is not None else []:
        last = min(max(c.end_line - 1, c.line - 1), max(len(lines) - 1, 0))
        start = T.Position(max(c.line - 1, 0), 0)
        end = T.Position(last, X.utf16(lines[last], len(lines[last])) if lines else 0)
        kind = T.SymbolKind.Event if c.kind in ("event", "combo") else T.SymbolKind.Class
        out.append(T.DocumentSymbol(c.name or c.id or "?", kind, T.Range(start, end), T.Range(start, start),
                                    detail=f"{c.kind} · {c.id}" if c.id else c.kind))
    return out


# ---- semantic tokens -------------------------------------------------------------------------

def _classify(tok: X.Token, before: X.Token | None, in_head: bool) -> str | None:
    if tok.kind in ("comment", "string", "number"):
        return tok.kind
    if tok.kind == "op":
        return "operator" if tok.text not in "():,[]" else None
    found = vocab.by_word().get(tok.text)
    if in_head and tok.text not in ("on", "when", "once", "react"):
        return "event"
    if not found:
        return None
    return _word_entries(tok.text, [before] if before is not None else [])[0].token


def semantic_tokens(lines: list[str], rules_file: bool = False) -> T.SemanticTokens:
    data: list[int] = []
    prev_line = prev_col = 0
    for region in X.regions(lines, rules_file):
        toks = X.tokens(lines, region)
        for i, tok in enumerate(toks):
            before = toks[i - 1] if i and toks[i - 1].line == tok.line else None
            head = _HEAD.match(lines[tok.line])
            in_head = head is not None and head.start("phrase") <= tok.col < head.end("phrase")
            kind = _classify(tok, before, in_head)
            if kind is None:
                continue
            line = lines[tok.line]
            col = X.utf16(line, tok.col)
            length = X.utf16(line, tok.col + len(tok.text)) - col
            delta_line = tok.line - prev_line
            data += [delta_line, col - prev_col if delta_line == 0 else col, length, TOKEN_TYPES.index(kind), 0]
            prev_line, prev_col = tok.line, col
    return T.SemanticTokens(data=data)


# ---- quick fixes -----------------------------------------------------------------------------

def code_actions(uri: str, lines: list[str], diags: Sequence[T.Diagnostic]) -> list[T.CodeAction]:
    out: list[T.CodeAction] = []
    for d in diags:
        if d.source != "rulekit" or not isinstance(d.code, str):
            continue
        fix = _did_you_mean(uri, lines, d)
        if fix is not None:
            out.append(fix)
        out.append(_noqa(uri, lines, d))
    return out


def _did_you_mean(uri: str, lines: list[str], d: T.Diagnostic) -> T.CodeAction | None:
    """Replace the word the diagnostic marks with its suggestion, when the marked text is the word named."""
    guess = _DID_YOU_MEAN.search(d.message)
    wrong = _FIRST_QUOTED.search(d.message)
    r = d.range
    if guess is None or wrong is None or r.start.line != r.end.line or r.start.line >= len(lines):
        return None
    line = lines[r.start.line]
    a, b = X.from_utf16(line, r.start.character), X.from_utf16(line, r.end.character)
    marked = line[a:b]
    if marked != wrong.group(1):
        at = line.find(wrong.group(1), a)        # the range may start at the value (a key's `name:`)
        if at < 0 or at > b:
            return None
        a, b = at, at + len(wrong.group(1))
    rng = T.Range(T.Position(r.start.line, X.utf16(line, a)), T.Position(r.start.line, X.utf16(line, b)))
    edit = T.WorkspaceEdit(changes={uri: [T.TextEdit(rng, guess.group(1))]})
    return T.CodeAction(f"改为 Change to '{guess.group(1)}'", kind=T.CodeActionKind.QuickFix, diagnostics=[d],
                        edit=edit, is_preferred=True)


def _noqa(uri: str, lines: list[str], d: T.Diagnostic) -> T.CodeAction:
    """`# rulekit: noqa: CODE` at the end of the diagnostic's line (or the code added to the line's noqa)."""
    n = d.range.start.line
    line = lines[n] if n < len(lines) else ""
    code = str(d.code)
    found = _NOQA.search(line)
    if found is not None:
        at, new = found.end(), f", {code}"
    else:
        at, new = len(line.rstrip()), f"  # rulekit: noqa: {code}"
    pos = T.Position(n, X.utf16(line, at))
    edit = T.WorkspaceEdit(changes={uri: [T.TextEdit(T.Range(pos, pos), new)]})
    return T.CodeAction(f"在此行忽略 Silence {code} on this line (# rulekit: noqa: {code})", kind=T.CodeActionKind.QuickFix,
                        diagnostics=[d], edit=edit)

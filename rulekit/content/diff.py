"""What changed between two loaded contents, in a designer's words: cards added, removed or edited, rules changed."""

from __future__ import annotations

import difflib
import hashlib
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulekit.model import Card, Content

# The fields of a card a diff compares, in the order it names them; a card's digest covers exactly these.
FIELDS = ("kind", "name", "status", "stage", "price", "copies", "score", "duration", "counters", "switchable",
          "when_text", "effect_text", "flavor", "notes")

# How a field is named in each language.
FIELD_WORDS = {
    "kind": ("种类", "kind"), "name": ("名称", "name"), "status": ("状态", "status"), "stage": ("阶段", "stage"),
    "price": ("价格", "price"), "copies": ("张数", "copies"), "score": ("终局分", "score"),
    "duration": ("持续", "duration"), "counters": ("计数器", "counters"), "switchable": ("可开关", "switchable"),
    "when_text": ("触发条件", "when"), "effect_text": ("效果文字", "effect text"),
    "flavor": ("风味文字", "flavor text"), "notes": ("备注", "notes"),
}
# Text a designer reads as prose: a change is named, not quoted.
PROSE = ("flavor", "notes")
# Text in the effect language: a change is named by its lines.
CODE = ("effect_text", "when_text")
KIND_WORDS = {"advisor": ("顾问", "advisor"), "policy": ("政策", "policy"), "event": ("事件", "event"),
              "combo": ("连击", "combo")}


@dataclass(frozen=True)
class Change:
    """One difference between two contents, said in Chinese and in English."""

    what: str               # added | removed | a field of FIELDS | rules
    id: str                 # the card's id, or the rules key (dotted: tracks.medical.start)
    name: str | None        # the card's name (None for rules)
    zh: str
    en: str

    @property
    def words(self) -> str:
        return f"{self.zh} / {self.en}"

    def as_dict(self) -> dict:
        return {"what": self.what, "id": self.id, "name": self.name, "zh": self.zh, "en": self.en}


def diff(base: Content, new: Content) -> list[Change]:
    """Every difference from base to new: edited and new cards in new's order, removed cards, then rules."""
    before = {c.id: c for c in base.cards}
    after = {c.id: c for c in new.cards}
    out: list[Change] = []
    for card in new.cards:
        old = before.get(card.id)
        out += _card_changes(old, card) if old is not None else [_added(card, new.root)]
    out += [_removed(card) for card in base.cards if card.id not in after]
    out += rule_changes(base.rules, new.rules)
    return out


def _added(card: Card, root: str) -> Change:
    zh, en = KIND_WORDS[card.kind]
    where = f" ({_inside(card.file, root)}:{card.line})" if card.file else ""
    return Change("added", card.id, card.name, f"新{zh}牌 {card.name}{where}", f"new {en} card {card.label}{where}")


def _inside(file: str, root: str) -> str:
    """A card's file as a path inside its content folder (a folder extracted from git has no place of its own)."""
    try:
        return Path(file).relative_to(root).as_posix() if root else file
    except ValueError:
        return file


def _removed(card: Card) -> Change:
    zh, en = KIND_WORDS[card.kind]
    return Change("removed", card.id, card.name, f"移除了{zh}牌 {card.name}（或已不在牌堆中，如改为 tbd）",
                  f"removed {en} card {card.label} (or no longer in the decks, as when marked tbd)")


def _card_changes(old: Card, new: Card) -> list[Change]:
    out = []
    for f in FIELDS:
        a, b = getattr(old, f), getattr(new, f)
        if a == b:
            continue
        zh, en = FIELD_WORDS[f]
        if f in PROSE:
            words = (f"{zh}有改动", f"{en} changed")
        elif f in CODE:
            words = _code_words(zh, en, a, b)
        else:
            words = (f"{zh} {_shown(a)} → {_shown(b)}", f"{en} {_shown(a)} → {_shown(b)}")
        out.append(Change(f, new.id, new.name, f"{new.name}：{words[0]}", f"{new.name} ({new.id}): {words[1]}"))
    return out


def _code_words(zh: str, en: str, a: str | None, b: str | None) -> tuple[str, str]:
    if a is None:
        return f"新增{zh}", f"{en} added"
    if b is None:
        return f"删除了{zh}", f"{en} removed"
    changed, removed = changed_lines(a, b)
    parts_zh, parts_en = [], []
    if changed:
        parts_zh.append(f"第 {_spans(changed, '、')} 行")
        parts_en.append(f"line{'s' if len(changed) > 1 else ''} {_spans(changed, ', ')}")
    if removed:
        parts_zh.append(f"删去原第 {_spans(removed, '、')} 行")
        parts_en.append(f"old line{'s' if len(removed) > 1 else ''} {_spans(removed, ', ')} removed")
    if not parts_en:        # only the line endings or the final line break differ
        parts_zh.append("仅空白")
        parts_en.append("white space only")
    return f"{zh}有改动（{'；'.join(parts_zh)}）", f"{en} changed ({'; '.join(parts_en)})"


def changed_lines(a: str, b: str) -> tuple[list[int], list[int]]:
    """The lines of b (from 1) that are new or edited, and the lines of a dropped without a replacement."""
    old, new = a.splitlines(), b.splitlines()
    changed: list[int] = []
    removed: list[int] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag in ("replace", "insert"):
            changed += range(j1 + 1, j2 + 1)
        elif tag == "delete":
            removed += range(i1 + 1, i2 + 1)
    return changed, removed


def _spans(lines: list[int], sep: str) -> str:
    """3, 5–7 for [3, 5, 6, 7]."""
    runs: list[list[int]] = []
    for n in lines:
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    return sep.join(str(a) if a == b else f"{a}–{b}" for a, b in runs)


def _shown(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, tuple) and all(isinstance(v, int) for v in value):
        return "/".join(map(str, value)) or "—"
    if isinstance(value, tuple):
        return ", ".join(f"{k} {v}" for k, v in value) or "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


# ---- rules --------------------------------------------------------------------------------------

def rule_changes(base: Mapping[str, Any], new: Mapping[str, Any]) -> list[Change]:
    """rules.yaml's keys (as in force, rulekit's defaults filled in) whose value differs, by dotted key."""
    a, b = dict(_flat(base)), dict(_flat(new))
    out = []
    for key in sorted(a.keys() | b.keys()):
        if a.get(key, _ABSENT) == b.get(key, _ABSENT):
            continue
        was, now = _rule_value(a.get(key, _ABSENT)), _rule_value(b.get(key, _ABSENT))
        out.append(Change("rules", key, None, f"rules.yaml {key}：{was} → {now}", f"rules.yaml {key}: {was} → {now}"))
    return out


_ABSENT = object()


def _flat(value: Any, prefix: str = "") -> Iterator[tuple[str, Any]]:
    if isinstance(value, Mapping) and value:
        for k, v in value.items():
            yield from _flat(v, f"{prefix}.{k}" if prefix else str(k))
    else:
        yield prefix, value


def _rule_value(value: Any) -> str:
    if value is _ABSENT:
        return "—"
    return json.dumps(value, ensure_ascii=False)


# ---- what a batch records of its content --------------------------------------------------------------

def parts(content: Content) -> dict:
    """What a batch records to say later which files and cards changed: a digest of each file and each card."""
    return {"files": {_safe(path): digest for path, digest in content.files.items()},
            "cards": {c.id: {"name": c.name, "digest": card_digest(c)} for c in content.cards}}


def card_digest(card: Card) -> str:
    """sha256 over the fields a diff compares: equal digests, no change a diff would name."""
    data = [_plain(getattr(card, f)) for f in FIELDS]
    return hashlib.sha256(json.dumps(data, ensure_ascii=False).encode("utf-8", "surrogatepass")).hexdigest()


def _plain(value: Any) -> Any:
    return [_plain(v) for v in value] if isinstance(value, tuple) else value


def _safe(path: str) -> str:
    """A path as text JSON can hold (a name that is not UTF-8 shows U+FFFD where it cannot be read)."""
    return path.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def file_changes(old: Mapping[str, str], new: Mapping[str, str]) -> dict[str, list[str]]:
    """The files (path -> digest) changed, added and removed from old to new, each list sorted."""
    return {"changed": sorted(f for f in new if f in old and old[f] != new[f]),
            "added": sorted(f for f in new if f not in old),
            "removed": sorted(f for f in old if f not in new)}


def changed_parts(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[str]:
    """The files and cards that differ between two records of parts(), in words; [] when either is missing."""
    if not isinstance(old, Mapping) or not isinstance(new, Mapping):
        return []
    out = []
    files_a, files_b = old.get("files"), new.get("files")
    if isinstance(files_a, Mapping) and isinstance(files_b, Mapping):
        for word, names in file_changes(files_a, files_b).items():
            if names:
                out.append(f"files {word} / 文件{_ZH[word]}: {', '.join(names)}")
    cards_a, cards_b = old.get("cards"), new.get("cards")
    if isinstance(cards_a, Mapping) and isinstance(cards_b, Mapping):
        said = [f"{_label(card, cid)} changed 有改动" for cid, card in cards_b.items()
                if cid in cards_a and _digest(cards_a[cid]) != _digest(card)]
        said += [f"{_label(card, cid)} added 新增" for cid, card in cards_b.items() if cid not in cards_a]
        said += [f"{_label(card, cid)} removed 移除" for cid, card in cards_a.items() if cid not in cards_b]
        if said:
            out.append(f"cards / 卡牌: {', '.join(said)}")
    return out


_ZH = {"changed": "有改动", "added": "新增", "removed": "移除"}


def _label(card: Any, cid: str) -> str:
    name = card.get("name") if isinstance(card, Mapping) else None
    return f"{name} ({cid})" if isinstance(name, str) and name != cid else cid


def _digest(card: Any) -> Any:
    return card.get("digest") if isinstance(card, Mapping) else None

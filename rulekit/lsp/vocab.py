"""The words an editor explains and offers: every entry of rulekit.registry, with its section, its Chinese
name, its documentation and an example of its use. Nothing here is a second vocabulary: each word and
its text come from the registry; only the section names and the example statements are written here
(tests/test_lsp_features.py parses and checks every example).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache

from rulekit import registry as G


@dataclass(frozen=True)
class Entry:
    """One meaning of a word (a word may have several: `reveal` is a verb and a trigger)."""

    word: str
    section: str          # the registry section, e.g. "track"
    section_zh: str
    zh: str
    doc: str
    example: str          # a whole effect (handler included) that uses the word
    token: str            # the semantic token type effect text shows it as


# section -> (Chinese name, semantic token type, the example for a word: a handler body or a whole effect)
_SECTIONS: dict[str, tuple[str, str]] = {
    "track": ("轨道", "variable"),
    "count": ("棋盘计数", "property"),
    "value": ("数值", "property"),
    "kind": ("居民种类", "enumMember"),
    "tag": ("标签", "enumMember"),
    "verb": ("动词", "function"),
    "trigger": ("触发器", "event"),
    "phase": ("阶段", "event"),
    "moment": ("反应时机", "event"),
    "quantity": ("数量", "property"),
    "predicate": ("判断", "function"),
    "function": ("函数", "function"),
    "aggregate": ("汇总", "function"),
    "countable": ("计数对象", "keyword"),
    "card value": ("牌的数值", "property"),
    "superlative": ("比较词", "enumMember"),
    "shieldable": ("可保护", "enumMember"),
    "sealable": ("可封锁", "enumMember"),
    "skippable": ("可跳过的传播步骤", "enumMember"),
    "shield source": ("护盾来源", "enumMember"),
    "seal direction": ("封锁方向", "enumMember"),
    "track limit": ("轨道下限与上限", "keyword"),
    "transfer": ("转移", "function"),
    "card kind": ("卡牌种类", "type"),
    "statement": ("语句", "keyword"),
    "keyword": ("关键字", "keyword"),
}


def _body(effect: str) -> str:
    return "on play:\n  " + effect.replace("\n", "\n  ")


_VALUE_EXAMPLES = {"revealed": "if revealed:\n  score += 1", "uses": "if uses >= 2:\n  score += 1"}
_PREDICATE_EXAMPLES = {"played": 'if played("医院扩容"):\n  medical += 1', "event": 'if event("游行示威"):\n  policy -= 1',
                       "happened": 'if happened("游行示威"):\n  policy -= 1', "unlocked": "if unlocked(2):\n  money += 2",
                       "advisor": 'if advisor("疾病专家"):\n  medical += 1', "tableau": 'if tableau("医院扩容"):\n  money += 1',
                       "switched_off": 'if switched_off("医院扩容"):\n  money += 1'}
_FUNCTION_EXAMPLES = {"min": "money += min(healthy, 3)", "max": "score += max(policy, 0)", "abs": "score += abs(policy) // 2",
                      "roll": "let r = roll(6, rerolls 1)\nmoney += r"}
_COUNTABLE_EXAMPLES = {"player": "score += count(player where dead > 3)",
                       "other player": "money += count(other player where mild > 2)",
                       "played": "score += count(played where stage == 2)",
                       "tableau": "score += count(tableau where stage == 2)"}
_STATEMENT_EXAMPLES = {
    "let": "let n = infected // 2\nmedical += n", "if": "if mild > 3:\n  medical += 1\nelse:\n  money += 1",
    "each player": "each other player:\n  money -= 1", "player with": "player with most dead:\n  policy -= 1",
    "repeat": "repeat 2:\n  cure 1 mild", "next to": "cure up to 2 mild next to healthy",
    "choose": "choose n from 0 to 3\nspend n\nmedical += n",
    "may": "may:\n  reveal 1 tiles", "may pay": "may pay 2:\n  medical += 2", "spend": "spend 1\nmedical += 1",
    "pay": "pay 3 as unpaid\npolicy -= unpaid", "draw": "draw 3 from stage 1 keep 1", "unlock": "unlock stage 2",
    "choose player": "choose other player:\n  take 1 money",
    "choose cell": "choose cell with mild:\n  cure it",
    "tag": "choose cell with mild:\n  tag it sheltered", "take": "each other player:\n  take 1 money",
    "give": "each other player:\n  give 1 money", "discard": "discard 1 cards",
    "may discard": "may discard 1 cards:\n  money += 3",
    "after": "after 2 rounds:\n  money += 3", "me": "each other player:\n  money -= 1\n  me:\n    money += 1",
    "player after me": "player after me:\n  take 1 money", "player before me": "player before me:\n  give 1 money",
    "first player": "first player:\n  score += 1",
    "draft": "draft 4 from stage 1",
    "they choose": "choose other player:\n  they choose:\n    kill 1 mild",
}


def _examples(section: str, w: str) -> str:
    """A whole effect that uses word `w` of the section."""
    if section == "track":
        return _body(f"{w} += 1")
    if section == "count":
        return _body(f"score += {w} // 2")
    if section == "value" and w != "marks":
        return _body(_VALUE_EXAMPLES.get(w, f"money += {w}"))
    if section == "kind":
        verb = next(v for v, spec in G.VERBS.items() if w in spec.kinds)
        return _body(f"{verb} 1 {w}")
    if section == "verb":
        if w in G.VERBS:
            return _body(f"{w} 1 {G.VERBS[w].kinds[0]}")
        return _body(f"{w} 2 tiles" if w in G.TILE_VERBS else f"{w} 2 events" if w in G.EVENT_VERBS else "discard 1 cards")
    if section == "tag":
        return _body(f"choose cell with mild:\n  tag it {w}\nmoney += count({w})")
    if section == "trigger":
        body = "prevent" if G.TRIGGERS[w].preventable else "money += 1"
        return f"when {w}:\n  {body}"
    if section == "phase":
        return f"on {w} start:\n  money += 1"
    if section == "moment":
        return f"react {w}:\n  money += 1"
    if section == "quantity":
        return f"modify {w} by -1 min 0"
    if section == "predicate":
        if w == "caused_by":            # only in a trigger's handler (5.37)
            return "when cure:\n  if caused_by(event):\n    money += 1"
        return _body(_PREDICATE_EXAMPLES[w])
    if section == "function":
        return _body(_FUNCTION_EXAMPLES[w])
    if section == "aggregate":
        return _body(f"if score == {w}(score):\n  money += 1")
    if section == "countable":
        return _body(_COUNTABLE_EXAMPLES[w])
    if section == "card value":
        return _body(f"score += count(played where {w} >= 2)")
    if section == "superlative":
        return _body(f"player with {w} dead:\n  policy -= 1")
    if section == "shieldable":
        return f"shield {w}"
    if section == "sealable":
        return f"seal {w}"
    if section == "skippable":
        return f"skip {w}"
    if section == "shield source":
        return f"shield medical from {w}"
    if section == "seal direction":
        return f"seal border {w}"
    if section == "track limit":
        return f"{w} policy {-5 if w == 'floor' else 5}"
    if w in ("mark", "marks") and section in ("statement", "value"):
        return "on resolve:\n  each player:\n    mark\non round end:\n  medical -= marks"
    if section == "statement" and w == "while":
        return "modify income by 2 while policy >= 1"
    if section in ("transfer", "statement"):
        if w == "that player":         # only in `when other …` (5.35)
            return "when other play:\n  that player:\n    take 1 money"
        return "when death:\n  prevent" if w == "prevent" else _body(_STATEMENT_EXAMPLES[w])
    return ""


def _words(section: str, table: Mapping[str, G.Word] | Iterable[G.Word]) -> list[Entry]:
    zh, token = _SECTIONS[section]
    words = table.values() if isinstance(table, Mapping) else table
    return [Entry(w.name, section, zh, w.zh, w.doc, _examples(section, w.name), token) for w in words]


@cache
def entries() -> tuple[Entry, ...]:
    """Every meaning of every word, in the registry's order, section by section."""
    out = [
        *_words("track", [*G.TRACKS.values(), G.MONEY]),
        *_words("count", G.COUNTS), *_words("value", G.VALUES), *_words("kind", G.KINDS),
        *_words("tag", G.CELL_TAGS),
        *_words("verb", [*G.VERBS.values(), *G.TILE_VERBS.values(), *G.IT_ONLY_VERBS.values(),
                             *G.EVENT_VERBS.values()]),
        *_words("trigger", G.TRIGGERS), *_words("phase", G.PHASES), *_words("moment", G.REACT_MOMENTS),
        *_words("quantity", G.QUANTITIES), *_words("predicate", G.PREDICATES), *_words("function", G.FUNCTIONS),
        *_words("aggregate", G.AGGREGATES), *_words("countable", G.COUNTABLE), *_words("card value", G.CARD_VALUES),
        *_words("superlative", G.SUPERLATIVES), *_words("shieldable", G.SHIELDABLE), *_words("sealable", G.SEALABLE),
        *_words("skippable", G.SKIPPABLE), *_words("shield source", G.SHIELD_SOURCES),
        *_words("seal direction", G.SEAL_DIRECTIONS), *_words("track limit", G.TRACK_LIMITS),
        *_words("transfer", G.TRANSFERS), *_words("card kind", G.CARD_KINDS),
        *_words("statement", G.STATEMENTS),
    ]
    out.append(Entry("game end", "phase", _SECTIONS["phase"][0], G.GAME_END.zh, G.GAME_END.doc,
                     "on game end:\n  score += money // 5", "event"))
    for name, kinds in G.ON_HANDLERS.items():
        out.append(Entry(name, "handler", "处理器", _HANDLER_ZH[name], f"`on {name}:` — for {', '.join(kinds)} cards",
                         f"on {name}:\n  money += 1", "event"))
    stated = {e.word for e in out if e.section == "statement"}
    out += [Entry(k, "keyword", "关键字", "", "a keyword of the effect language (docs/language.md)", "", "keyword")
            for k in G.KEYWORDS if k not in stated]
    return tuple(out)


_HANDLER_ZH = {"play": "打出时", "setup": "开局时", "resolve": "结算时"}


@cache
def by_word() -> dict[str, tuple[Entry, ...]]:
    """word -> its meanings (a phrase such as `reveal mild` is one word here)."""
    out: dict[str, list[Entry]] = {}
    for e in entries():
        out.setdefault(e.word, []).append(e)
    return {w: tuple(es) for w, es in out.items()}


def sections(*names: str) -> list[Entry]:
    return [e for e in entries() if e.section in names]


def markdown(found: Iterable[Entry]) -> str:
    """Hover text: each meaning with its Chinese name, its section (both languages), its doc and an example."""
    parts = []
    for e in found:
        zh = f" {e.zh}" if e.zh else ""
        head = f"**{e.word}**{zh} · {e.section} {e.section_zh}"
        parts.append(head + f"\n\n{e.doc}" + (f"\n\n例 Example:\n```rulekit-effect\n{e.example}\n```" if e.example else ""))
    return "\n\n---\n\n".join(parts)

"""A fixed set of effect texts and conditions, right and broken, and what the parser makes of each.

The texts are every effect and condition of the test fixtures (the deck among them), and for each
a few copies with a designer's slips made in them (a letter dropped or doubled, a ':' lost, a tab, a
full-width comma, a line indented wrong...), chosen by a seeded RNG so the set never changes. What the
parser gives for each (the AST with its positions, every diagnostic, the mended lines and lost words)
is reduced to a digest; tests/fixtures/parse_golden.json holds the digests the parser gave before its
AST builder was rewritten, so any change to a position, a message or a mended line shows as a text.

`python -m tests.parse_corpus --write` rewrites the digests (only after checking each change is meant).
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import yaml

from rulekit.language.parser import Origin, parse_effect_recovering, parse_expression

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "fixtures" / "parse_golden.json"
_SOURCES = (ROOT / "tests" / "fixtures",)      # the deck there is the shipped content, as the tests have it
_CONDITION_KEYS = ("when", "stage2", "stage3", "stage4")
_INSERTS = (":", "(", ")", "\t", "，", "：", "“", "'", "#", "9" * 12, " x", "\n", "\n    ", "  ", "=", "+",
            " or", "not ", "-", ",", " then", "  if x:")
_WORD = re.compile(r"[^\W\d]\w*")
# Texts at and past the limits (nesting, numbers), which the content never reaches.
_LIMITS = {
    "31 nots": "on play:\n  if " + "not " * 31 + "dead > 1:\n    medical += 1",
    "40 nots": "on play:\n  if " + "not " * 40 + "dead > 1:\n    medical += 1\non setup:\n  money += 1",
    "40 nested blocks": "on play:\n" + "".join("  " * i + "  if money > 0:\n" for i in range(40)) + "  " * 41 + "money += 1",
    "31 nested blocks": "on play:\n" + "".join("  " * i + "  may:\n" for i in range(30)) + "  " * 31 + "money += 1",
    "a 40-operator chain": "on play:\n  money += " + " + ".join(["1"] * 41),
    "mixed operators": "on play:\n  money += " + " * ".join(["-(1 + 2 // 3 - 1)"] * 12) + " == (1 or 2 and not 3)",
    "33 brackets": "on play:\n  money += " + "(" * 33 + "1" + ")" * 33,
    "20 nested calls": "on play:\n  money += " + "max(1, " * 20 + "min(2)" + ")" * 20 + " + " + " - ".join("1" * 20),
    "numbers": "on play:\n  money += 99999999999 + 1000000000\nmodify income by 1000000001 min 12345678901\n",
    "deep after a mend": "on play:\n  iff x:\n    money += 1\n  money += " + " + ".join(["1"] * 40),
    "deep condition": "not " * 40 + "infected > 12",
    "condition numbers": "infected > 99999999999 or severe < 1000000001 and (dead\n  + 3)",
}


def _strings(node: object, key: str = "") -> Iterator[tuple[str, str]]:
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _strings(v, str(k))
    elif isinstance(node, list):
        for v in node:
            yield from _strings(v, key)
    elif isinstance(node, str) and key in ("effect", *_CONDITION_KEYS):
        yield key, node


def texts() -> list[tuple[str, str, str]]:
    """(name, 'effect' or 'condition', text) for every effect and condition of the sources, in file order."""
    out = []
    for src in _SOURCES:
        for path in sorted(src.rglob("*.yaml")):
            try:
                doc = yaml.safe_load(path.read_text(encoding="utf-8"))
            except (yaml.YAMLError, UnicodeDecodeError):
                continue
            for i, (key, text) in enumerate(_strings(doc)):
                kind = "effect" if key == "effect" else "condition"
                out.append((f"{path.relative_to(ROOT)}#{i}", kind, text))
    return out


def _slip(text: str, rng: random.Random) -> str:
    """`text` with one slip of the pen, of a kind the RNG picks."""
    kind = rng.randrange(7)
    lines = text.split("\n")
    if kind == 0 and text:
        i = rng.randrange(len(text))
        return text[:i] + text[i + 1:]
    if kind == 1:
        i = rng.randrange(len(text) + 1)
        return text[:i] + rng.choice(_INSERTS) + text[i:]
    if kind == 2 and len(text) > 1:
        i = rng.randrange(len(text) - 1)
        return text[:i] + text[i + 1] + text[i] + text[i + 2:]
    words = list(_WORD.finditer(text))
    if kind == 3 and words:
        m = rng.choice(words)
        w = m.group()
        j = rng.randrange(len(w))
        new = rng.choice([w[:j] + w[j + 1:], w[:j] + w[j] + w[j:], w[:j] + w[j + 1:j + 2] + w[j:j + 1] + w[j + 2:]])
        return text[:m.start()] + new + text[m.end():]
    n = rng.randrange(len(lines))
    if kind == 4:
        lines[n] = " " * rng.randint(1, 3) + lines[n] if rng.random() < 0.5 else lines[n][rng.randint(1, 3):]
    elif kind == 5:
        lines.insert(n, lines[n])
    else:
        del lines[n]
    return "\n".join(lines)


def cases(variants: int = 6) -> list[tuple[str, str, str]]:
    """Every text of the sources, and `variants` slipped copies of each (some with two slips)."""
    out = []
    for name, kind, text in texts():
        out.append((name, kind, text))
        rng = random.Random(name)
        for v in range(variants):
            slipped = _slip(text, rng)
            if v % 3 == 2:
                slipped = _slip(slipped, rng)
            out.append((f"{name}~{v}", kind, slipped))
    out += [(name, "condition" if name.startswith("condition") or name == "deep condition" else "effect", text)
            for name, text in _LIMITS.items()]
    return out


def outcome(kind: str, text: str) -> str:
    """What the parser makes of the text, as a text (sets sorted, so it is the same in every process)."""
    origin = Origin("card.yaml", 7, 5, 4)
    if kind == "condition":
        expr, diags = parse_expression(text, origin)
        return repr((expr, diags))
    parsed = parse_effect_recovering(text, origin)
    return repr((parsed.program, parsed.diags, sorted(parsed.mended_lines), sorted(parsed.lost_words),
                 parsed.complete))


def outcomes() -> dict[str, str]:
    return {name: outcome(kind, text) for name, kind, text in cases()}


def digest(outcome_text: str) -> str:
    return hashlib.sha256(outcome_text.encode()).hexdigest()[:16]


def digests() -> dict[str, str]:
    return {name: digest(text) for name, text in outcomes().items()}


if __name__ == "__main__":
    if "--write" in sys.argv:
        GOLDEN.write_text(json.dumps(digests(), indent=0, sort_keys=True) + "\n", encoding="utf-8")
    else:
        for name, kind, text in cases():
            if not sys.argv[1:] or name in sys.argv[1:]:
                print(f"== {name} ({kind})\n{text}\n-> {outcome(kind, text)}\n")

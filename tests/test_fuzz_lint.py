"""`rulekit lint` never shows a traceback, whatever the file holds; every position it gives is in the file."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulekit.cli import main
from rulekit.lint.render import split_lines
from tests.conftest import CONTENT
from tests.lint_fixtures import private_lint_cache  # noqa: F401 — autouse: the cache away from ~/.cache

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

CARD = """\
- id: field_hospital
  name: 野战医院
  stage: 2
  price: [2, 3]
  effect: |
{effect}
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("fuzz") / "content"


def lint_file(folder: Path, body: bytes, *args: str) -> list[dict]:
    """Lint a folder holding one policy file; assert a clean exit and sane positions.

    The first run fills the cache, the others read it.
    """
    shutil.rmtree(folder, ignore_errors=True)
    p = folder / "policies" / "card.yaml"
    p.parent.mkdir(parents=True)
    p.write_bytes(body)
    runner = CliRunner()
    result = runner.invoke(main, ["lint", str(folder), *args])
    assert result.exit_code in (0, 1), result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    result = runner.invoke(main, ["lint", str(folder), "--output-format", "json", *args])
    assert result.exit_code in (0, 1), result.output
    found = json.loads(result.output)
    lines = max(len(split_lines(body.decode("utf-8", errors="replace"))), body.count(b"\n") + 1)
    for d in found:
        if d["file"] == str(p) and d["line"]:
            assert 1 <= d["line"] <= lines + 1, d
            assert d["column"] >= 1, d
            assert (d["end_line"], d["end_column"]) >= (d["line"], d["column"]), d
    return found


# ---- hypothesis -------------------------------------------------------------------------------------

YAMLISH = st.lists(st.sampled_from([*list("- :|>[]{},'\"#&*!%@`\n\t\r 0123456789abcxyz_\\"), "医", "院", "\u3000", "：", "\x00",
                                    "\x85", "\u2028", "\ufeff", "id: "
                                                                "", "name: "
                                                                    "", "effect: "
                                                                        "|\n", "stage: "
                                                                               "", "price: "
                                                                                   "", "on play:\n", "medical += 1", "\n  "]),
                   max_size=80).map("".join)


@FUZZ
@given(text=YAMLISH)
def test_any_yaml_text(folder, text):
    lint_file(folder, text.encode("utf-8"))


@FUZZ
@given(raw=st.binary(max_size=300))
def test_any_bytes(folder, raw):
    lint_file(folder, raw)


TOKENS = ["on", "play", "setup", "resolve", "when", "once", "react", "death", "reveal", "mild", "modify",
          "new_mild", "by", "min", "shield", "hand", "money", "medical", "disease", "policy", "+=", "-=", "=",
          "let", "n", "if", "elif", "else", "each", "other", "player", "where", "with", "highest", "repeat",
          "choose", "from", "to", "may", "pay", "spend", "as", "draw", "stage", "keep", "unlock", "prevent",
          "cure", "kill", "remove", "it", "all", "any", "up", "played", "(", ")", ",", ":", "//", "*", "-",
          "+", "==", "<", "and", "or", "not", '"医院扩容"', '"', "0", "1", "3", "999999999999999999999",
          "#", "（", "：", "\t", "医院", " ", "  ", "\n", "\n  ", "\n    "]


@FUZZ
@given(words=st.lists(st.sampled_from(TOKENS), max_size=40), cache=st.booleans())
def test_any_effect_text(folder, words, cache):
    effect = "".join(w if w.startswith("\n") or w in (" ", "  ") else w + " " for w in words)
    block = "\n".join("    " + line for line in effect.split("\n"))
    lint_file(folder, CARD.format(effect=block).encode("utf-8"), *(() if cache else ("--no-cache",)))


# The first three cards of a real file.
REAL = (CONTENT / "policies" / "stage2.yaml").read_text(encoding="utf-8").split("\n- id:")
REAL = "\n- id:".join(REAL[:4]) + "\n"


@FUZZ
@given(edits=st.lists(st.tuples(st.integers(0, len(REAL)), st.integers(0, 3),
                                st.sampled_from(["", " ", "\n", ":", "-", "  ", "\t", "(", '"', "x", "医", "#"])),
                      min_size=1, max_size=6))
def test_real_cards_broken_at_random(folder, edits):
    text = REAL
    for at, cut, insert in edits:
        at = min(at, len(text))
        text = text[:at] + insert + text[at + cut:]
    lint_file(folder, text.encode("utf-8"))


# ---- the nasty cases of the issue ----------------------------------------------------------------------

def card_with(effect: str = "on play:\n  money += 1", price: str = "2") -> bytes:
    block = "\n".join("    " + line for line in effect.split("\n"))
    return CARD.replace("[2, 3]", price).format(effect=block).encode("utf-8")


@pytest.mark.parametrize("name, body, code", [
    ("20,000 nested brackets in an effect", card_with("on play:\n  money += " + "(" * 20000 + "1" + ")" * 20000),
     "RK103"),
    ("20,000 nested brackets in YAML", b"[" * 20000 + b"]" * 20000, "RK001"),
    ("20,000 nested mappings in YAML", b"{a: " * 20000 + b"1" + b"}" * 20000, "RK001"),
    ("a 300-digit price", card_with(price="9" * 300), None),
    ("a 300-digit amount", card_with("on play:\n  money += " + "9" * 300 + "\n  repeat " + "9" * 300 + ":\n"
                                     "    cure 1 mild"), "RK104"),
    ("tabs in the effect", card_with("on play:\n\tmoney += 1\n  money += 2"), None),
    ("tabs in the YAML", b"- id: x\n\tname: X\n", "RK001"),
    ("a GBK file", "- id: x\n  name: 医院扩容\n".encode("gbk"), "RK002"),
    ("binary noise", bytes(range(256)) * 8, "RK002"),
    ("an empty file", b"", "RK004"),
    ("only a BOM", b"\xef\xbb\xbf", "RK004"),
    ("NUL bytes", b"- id: x\n  name: \x00\n", "RK002"),
    ("old Mac line ends", card_with().replace(b"\n", b"\r"), None),
    ("Windows line ends with a typo", card_with("on play:\n  medicl += 1").replace(b"\n", b"\r\n"), "RK201"),
    ("a 2,000-line effect", card_with("on play:\n" + "  money += 1\n" * 2000), None),
    ("a 5,000-operator chain", card_with("on play:\n  money += " + " + ".join(["1"] * 5000)), "RK103"),
    ("100 nested blocks", card_with("on play:\n" + "".join("  " * i + "  if money > 0:\n" for i in range(100))
                                    + "  " * 101 + "money += 1"), "RK103"),
], ids=lambda value: value if isinstance(value, str) and " " in value else "")
def test_nasty_input(folder, name, body, code):
    found = lint_file(folder, body)
    if code is not None:
        assert code in {d["code"] for d in found}, (name, found)


def test_a_folder_with_no_cards(tmp_path):
    (tmp_path / "content").mkdir()
    result = CliRunner().invoke(main, ["lint", str(tmp_path / "content"), "--output-format", "concise"])
    assert result.exit_code == 1                     # RK009: not a content folder (no rules.yaml, no card)
    assert "in 0 files" in result.output.splitlines()[-1]

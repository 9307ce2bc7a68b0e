"""The rule registry: every code any module can emit is documented, and every Example really gets its code."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

from rulekit.diagnostics.codes import CODES
from rulekit.lint import docs
from rulekit.lint.engine import check
from rulekit.lint.rules import RULES, Rule, closest

REPO = Path(__file__).resolve().parents[1]


def test_every_lint_code_of_the_table_has_a_rule():
    """Which codes modules report is tests/test_diagnostics_table.py's; here every RK code is documented."""
    assert sorted(RULES) == sorted(c for c in CODES if c.startswith("RK"))


def test_every_rule_takes_severity_and_title_from_the_table():
    for code, rule in RULES.items():
        assert (rule.severity, rule.title) == CODES[code]


def test_the_parser_codes_are_among_them():
    assert {"RK101", "RK102", "RK103"} <= set(RULES)


def test_rule_names_are_unique_kebab_case():
    names = [r.name for r in RULES.values()]
    assert len(names) == len(set(names))
    assert all(re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", n) for n in names)


def test_every_rule_has_four_sections_with_text():
    for rule in RULES.values():
        text = rule.markdown()
        for section in ("### What it does", "### Why it matters", "### Example", "### How to fix"):
            assert section in text, (rule.code, section)
        assert rule.what.strip() and rule.why.strip() and rule.example.strip() and rule.fix.strip()
        assert rule.fixed.strip() or not rule.demo, rule.code


def _lint_example(tmp_path: Path, rule: Rule, text: str, path: str, encoding: str):
    root = tmp_path / "content"
    for rel, body in rule.context:
        f = root / rel
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(textwrap.dedent(body), encoding="utf-8")
    f = root / path
    f.parent.mkdir(parents=True, exist_ok=True)
    f.write_bytes(textwrap.dedent(text).encode(encoding))
    return [d for d in check([root]) if d.code == rule.code]


@pytest.mark.parametrize("code", [c for c, r in RULES.items() if r.demo])
def test_the_example_gets_its_code_and_the_fix_does_not(tmp_path, code):
    rule = RULES[code]
    bad = _lint_example(tmp_path / "bad", rule, rule.example, rule.path, rule.encoding)
    assert bad, f"{code}: its Example does not get {code}"
    assert {d.severity for d in bad} == {rule.severity}
    good = _lint_example(tmp_path / "good", rule, rule.fixed, rule.fixed_path or rule.path, "utf-8")
    assert good == [], f"{code}: its fixed Example still gets {code}: {good}"


def test_the_committed_docs_are_the_generated_text():
    committed = (REPO / docs.DOC_PATH).read_text(encoding="utf-8")
    assert committed == docs.markdown(), "docs/lint-rules.md is stale: run `python -m rulekit.lint.docs`"


def test_the_docs_list_every_code():
    text = docs.markdown()
    for code in RULES:
        assert f"\n## {code} " in text


def test_closest_code_for_typos():
    assert closest("RK2O1") == "RK201"
    assert closest("RK2") is None           # a prefix: no guess
    assert closest("XYZ12") is None

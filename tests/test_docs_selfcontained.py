"""The repository stands on its own: no file points outside it, and its rules and scenario docs stay true to the code."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from rulekit import play as P
from rulekit import registry
from rulekit.core.questions import Ask
from rulekit.content.rules import DEFAULT_RULES
from rulekit.scenarios.reader import ContentSource
from rulekit.scenarios.runner import run_file
from tests.conftest import CONTENT, ROOT

DOCS = ROOT / "docs"
# Written in pieces, so that this file does not name what it looks for.
OUTSIDE = [("..", "/shared"), ("shared", "/spec"), ("shared", "/seeds")]
_FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.M | re.S)


def doc(name: str) -> str:
    """A doc's text; empty when the doc is missing, so that every test about it fails on its own."""
    path = DOCS / name
    return path.read_text(encoding="utf-8") if path.exists() else ""


def tracked_files() -> list[Path]:
    """The files of the repository: git's list in a checkout, else every file below the root."""
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True, timeout=60).stdout
        return [ROOT / name for name in out.decode("utf-8").split("\0") if name]
    except (OSError, subprocess.SubprocessError):
        skip = {".git", "__pycache__", ".pytest_cache", ".rulekit_cache"}
        return [p for p in ROOT.rglob("*") if p.is_file() and not skip & set(p.relative_to(ROOT).parts)]


def test_no_file_of_the_repository_points_outside_it():
    """A fresh clone has no shared folder beside it: every reference must be to a file inside."""
    needles = [(a + b).encode() for a, b in OUTSIDE]
    found = []
    for path in tracked_files():
        if not path.is_file():
            continue
        for n, line in enumerate(path.read_bytes().splitlines(), 1):
            if any(needle in line for needle in needles):
                found.append(f"{path.relative_to(ROOT)}:{n}: {line.decode('utf-8', 'replace').strip()[:100]}")
    assert not found, "these lines point outside the repository; point them at docs/ instead:\n  " + "\n  ".join(found)


def test_every_link_between_the_docs_leads_to_a_file():
    broken = []
    for page in [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]:
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", page.read_text(encoding="utf-8")):
            if "://" not in target and not (page.parent / target).exists():
                broken.append(f"{page.relative_to(ROOT)} → {target}")
    assert not broken, "\n".join(broken)


# ---- docs/scenarios.md: every example runs, every table matches the code ----------------------------

def _scenario_examples() -> list[tuple[int, str]]:
    text = doc("scenarios.md")
    return [(text.count("\n", 0, m.start(2)) + 1, m.group(2)) for m in _FENCE.finditer(text)
            if m.group(1) == "yaml" and m.group(2).startswith("scenario:")]


def test_scenarios_md_shows_every_kind_of_step_and_answer():
    examples = "\n".join(body for _, body in _scenario_examples())
    assert len(_scenario_examples()) >= 7
    for form in ("- play:", "- phase:", "- step:", "- event:", "- round:", "[bury, [", "[relocate, [",
                 "[switch, ", "none", "done", "yes]", "[no, ", "cards:", "rules:", "combos:", "winner:"):
        assert form in examples, f"no example of {form!r} in docs/scenarios.md"


@pytest.fixture(scope="module")
def source():
    return ContentSource(CONTENT)


@pytest.mark.parametrize("line, body", _scenario_examples(), ids=lambda v: f"line{v}" if isinstance(v, int) else "")
def test_every_scenario_example_in_scenarios_md_passes(tmp_path, source, line, body):
    path = tmp_path / f"example_line{line}.scenario.yaml"
    path.write_text(body, encoding="utf-8")
    result = run_file(path, f"docs/scenarios.md (example at line {line})", source)
    assert result.passed, "\n".join(str(f) for f in result.failures)


def _table_rows(text: str, heading: str) -> list[list[str]]:
    """The rows of the first table after `heading`, each a list of its cells."""
    assert heading in text, f"no {heading} in the doc"
    rest = text[text.index(heading):]
    table = re.search(r"^\|.*?(?=^[^|])", rest, re.M | re.S).group(0)
    rows = [[c.strip() for c in line.strip().strip("|").split("|")] for line in table.splitlines()]
    return [r for r in rows[2:] if r and r[0]]


def _names(cell: str) -> list[str]:
    return re.findall(r"`([^`]+)`", cell)


def test_the_log_record_table_of_scenarios_md_is_the_code_s():
    text = doc("scenarios.md")
    documented = {_names(r[0])[0]: set(_names(r[1])) for r in _table_rows(text, "**Every other record**")}
    in_code = {kind: set(fields) for kind, fields in P.RECORDS.items()}
    assert documented == in_code
    header = {name for r in _table_rows(text, "**The header**") for name in _names(r[0])}
    assert header == set(P.HEADER)
    answers = {name for r in _table_rows(text, "**The answers**") for name in _names(r[0])}
    assert answers == set(P.ANSWERS)


def test_the_question_table_of_scenarios_md_names_every_question():
    text = doc("scenarios.md")
    documented = {_names(r[0])[0] for r in _table_rows(text, "| 问题 question |")}
    assert documented == {k.value for k in Ask}


# ---- docs/rules.md: every number with its rules.yaml key, every limit with its value -----------------

def _keys(tree: dict, prefix: str = "") -> list[str]:
    out = []
    for key, value in tree.items():
        if isinstance(value, dict) and key not in ("tracks", "money"):
            out += _keys(value, f"{prefix}{key}.")
        else:
            out.append(f"{prefix}{key}")
    return out


def test_rules_md_names_the_rules_yaml_key_of_every_parameter():
    text = doc("rules.md")
    missing = [k for k in _keys(DEFAULT_RULES) if k not in ("tracks", "money") and f"`{k}`" not in text
               and f"rules.yaml: {k}`" not in text]
    missing += [f"tracks.{t}" for t in registry.TRACKS if f"`tracks.{t}." not in text]
    missing += ["money.start"] if "`money.start`" not in text else []
    assert not missing, f"docs/rules.md does not name these rules.yaml keys: {missing}"


def _number(n: int) -> str:
    return f"{n:,}".replace("-", "−")


def test_rules_md_states_every_track_range_and_every_limit():
    text = doc("rules.md")
    wrong = [f"{t.name} {_number(t.lo)}..{_number(t.hi)}" for t in (*registry.TRACKS.values(), registry.MONEY)
             if f"{_number(t.lo)}..{_number(t.hi)}" not in text]
    wrong += [f"{name} {_number(limit.value)}" for name, limit in registry.LIMITS.items()
              if not re.search(rf"`{name}` {re.escape(limit.zh)} \| {re.escape(_number(limit.value))} \|", text)]
    assert not wrong, f"docs/rules.md states these differently from rulekit/registry.py: {wrong}"


def test_rules_md_explains_event_scoring():
    text = doc("rules.md")
    assert "**Event scoring happens in every event phase**" in text
    assert "its score is 2, not 3" in text

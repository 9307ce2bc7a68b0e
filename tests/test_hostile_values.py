"""Hostile values in content: rules.yaml numbers out of range, look-alike card identities, text that is
not text, and a lint cache entry that is not what rulekit wrote — each refused or shown safely."""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
from pathlib import Path

import pytest

from rulekit import console
from rulekit.content.loader import check_paths, load_content
from rulekit.content.schema import schema, written
from rulekit.lint import cache
from rulekit.lint.run import lint
from rulekit.registry import MAX_NUMBER, TRACKS
from tests.conftest import ENGINE_CONTENT
from tests.hostile import content, errors, run  # noqa: F401  (content is a fixture)
from tests.lint_fixtures import private_lint_cache  # noqa: F401  (the lint cache in a folder of the tests)

REPO = Path(__file__).resolve().parents[1]
ESC = "\x1b"


def add_policy(root: Path, **fields) -> None:
    card = {"stage": 1, "price": 1, "effect": "on play:\n  money += 1\n", **fields}
    with open(root / "policies" / "cards.yaml", "a", encoding="utf-8") as f:
        f.write("- " + json.dumps(card, ensure_ascii=False) + "\n")


# ---- every rules.yaml number has a range -------------------------------------------------------------

@pytest.mark.parametrize("rules, line, value, words", [
    ("money:\n  start: 1.0e+20\n", 2, "1.0e+20", "money.start must be a whole number from 0 to 1,000,000,000"),
    ("money:\n  start: 100000000000000000000\n", 2, "1000", "money.start must be a whole number from 0"),
    ("max_rounds: 14.0\n", 1, "14.0", "max_rounds must be a whole number from 1 to 999, got 14.0"),
    ("hand_limit: 10000000000\n", 1, "1000", "hand_limit must be null (no limit) or a whole number from 0 to 1,000,000,000"),
    ("tracks:\n  score: {min: null, max: null, start: 100000000000000000000}\n", 2, "1000",
     "tracks.score.start must be a whole number from −1,000,000,000 to 1,000,000,000"),
    ("tracks:\n  medical: {max: 3}\n", 2, "3", "tracks.medical.start (5) is above tracks.medical.max (3)"),
    ("tracks:\n  policy: {min: 5, max: 2}\n", 2, "5", "tracks.policy.min (5) is above tracks.policy.max (2)"),
    ("money:\n  start: 50\n  max: 20\n", 2, "50", "money.start (50) is above money.max (20)"),
])
def test_a_rules_number_out_of_range_is_refused_where_it_is_written(content, rules, line, value, words):
    (content / "rules.yaml").write_text(rules, encoding="utf-8")
    col = rules.splitlines()[line - 1].index(value) + 1
    [d] = errors(content)
    assert (d.code, d.line, d.col) == ("RK010", line, col) and words in d.message, d


def test_play_with_a_huge_starting_money_stops_at_the_rules_file(content):
    (content / "rules.yaml").write_text("money:\n  start: 1.0e+20\n", encoding="utf-8")
    r = run("play", "--content", content)
    assert r.exit_code == 1 and f"{content / 'rules.yaml'}:2:10: RK010" in r.output
    assert "Traceback" not in r.output and "OverflowError" not in r.output


def test_a_scenario_may_move_a_range_the_content_has_widened(tmp_path):
    root = tmp_path / "content"
    shutil.copytree(ENGINE_CONTENT, root)
    (root / "rules.yaml").write_text("tracks:\n  medical: {max: 30}\n", encoding="utf-8")
    scenario = tmp_path / "wide.scenario.yaml"
    scenario.write_text("scenario: a start the content allows\nrules:\n  tracks:\n    medical: {start: 25}\n"
                        "steps: []\nexpect:\n  P1: {medical: 25}\n", encoding="utf-8")
    r = run("test", scenario, "--content", root)
    assert r.exit_code == 0, r.output


def _whole_numbers(node, path=()):
    if isinstance(node, dict):
        kind = node.get("type")
        if kind == "integer" or (isinstance(kind, list) and "integer" in kind):
            yield ".".join(path), node
        for key, value in node.get("properties", {}).items():
            yield from _whole_numbers(value, (*path, key))
        for option in node.get("anyOf", []) + node.get("oneOf", []):
            yield from _whole_numbers(option, path)


def test_every_rules_number_has_a_range_within_the_number_limit_and_the_docs_state_it():
    rows = [line for line in (REPO / "docs" / "rules-params.md").read_text(encoding="utf-8").splitlines()
            if line.startswith("| `")]
    keys = list(_whole_numbers(schema("rules")))
    assert len(keys) == 8 + 3 * len(TRACKS) + 2
    for key, node in keys:
        lo, hi = node["minimum"], node["maximum"]
        assert -MAX_NUMBER <= lo < hi <= MAX_NUMBER, key
        shown = re.sub(r"^tracks\.\w+\.", "tracks.TRACK.", key)
        [row] = [r for r in rows if f"`{shown}`" in r.split("|")[1] or
                 (shown.startswith("tracks.TRACK.") and "`tracks.TRACK.min`" in r)]
        allowed = row.split("|")[3]
        assert written(lo) in allowed and written(hi) in allowed, (key, row)


# ---- look-alike identities ------------------------------------------------------------------------------

def test_an_id_with_a_trailing_line_break_is_refused(content):
    add_policy(content, id="hospital_expansion\n", name="医院扩容")
    assert [d.code for d in errors(content)] == ["RK010"]


def test_no_schema_pattern_ends_with_a_dollar_which_admits_a_final_line_break():
    texts = [p.read_text(encoding="utf-8") for p in (REPO / "rulekit").rglob("*.json")]
    patterns = [m for t in texts for m in re.findall(r'"\^[^"]*"', t)]
    assert patterns and not [p for p in patterns if p.endswith('$"')]


def test_a_card_named_like_another_cards_id_is_refused(content):
    add_policy(content, id="impostor", name="clinic")
    [d] = errors(content)
    assert (d.code, d.line) == ("RK308", 52) and "the id of another card" in d.message


@pytest.mark.parametrize("name, words", [
    ("诊\u200b所", "U+200B (ZERO WIDTH SPACE)"),
    ("诊所\u202e", "U+202E (RIGHT-TO-LEFT OVERRIDE), a mark that turns the text around"),
    ("诊所\u2066", "U+2066 (LEFT-TO-RIGHT ISOLATE)"),
    ("诊\u00ad所", "U+00AD (SOFT HYPHEN)"),
])
def test_invisible_and_bidi_characters_in_a_name_are_refused(content, name, words):
    add_policy(content, id="other_clinic", name=name)
    [d] = errors(content)
    assert (d.code, d.line) == ("RK018", 52) and words in d.message, d


def test_names_equal_once_normalised_are_one_name(content):
    add_policy(content, id="cafe_one", name="Caf\u00e9")
    add_policy(content, id="cafe_two", name="Cafe\u0301")
    [d] = errors(content)
    assert d.code == "RK302" and "written with other Unicode characters" in d.message


# ---- text that is not text --------------------------------------------------------------------------------

def test_control_characters_in_a_name_or_flavor_are_refused_with_their_position(content):
    add_policy(content, id="shouter", name=f"{ESC}]0;pwned\a诊所")
    add_policy(content, id="clearer", name="清屏", flavor=f"{ESC}[2J多行\n文字")
    found = errors(content)
    assert [(d.code, d.line) for d in found] == [("RK018", 52), ("RK018", 53)]
    assert "U+001B, a control character" in found[0].message
    r = run("play", "--content", content)
    assert r.exit_code == 1 and "RK018" in r.output and ESC not in r.output


# ---- what rulekit prints of it, safely ---------------------------------------------------------------------

def test_console_text_is_safe_and_keeps_what_is_text():
    assert console.safe(f"医院扩容 {ESC}[2J\u202e\x9b\u2028") == "医院扩容 U+001B[2JU+202EU+009BU+2028"
    assert console.safe("第 1 回合\n\t 瘟疫\u3000到来") == "第 1 回合\n\t 瘟疫\u3000到来"


def test_play_and_play_verbose_print_a_card_name_safely(monkeypatch):
    loaded = load_content(ENGINE_CONTENT)
    cards = tuple(dataclasses.replace(c, name=f"{ESC}]0;pwned\a{c.name}") for c in loaded.cards)
    hostile = dataclasses.replace(loaded, cards=cards)
    monkeypatch.setattr("rulekit.cli.load_or_exit", lambda *args: hostile)
    for flags in ([], ["-v"]):
        r = run("play", "--content", ENGINE_CONTENT, "--seed", "2", *flags)
        assert r.exit_code == 0, r.output
        assert ESC not in r.output and "\a" not in r.output and "U+001B]0;pwned" in r.output


def test_test_verbose_prints_a_scenario_name_safely(tmp_path):
    scenario = tmp_path / "one.scenario.yaml"
    scenario.write_text('scenario: "\\e[2J\\e]0;pwned\\a named"\nsteps: []\nexpect:\n  P1: {medical: 5}\n',
                        encoding="utf-8")
    r = run("test", "-v", scenario, "--content", ENGINE_CONTENT)
    assert r.exit_code == 0, r.output
    assert ESC not in r.output and "U+001B[2JU+001B]0;pwnedU+0007 named" in r.output


def test_replay_prints_a_hostile_log_safely(tmp_path):
    log = tmp_path / "game.jsonl"
    assert run("play", "--content", ENGINE_CONTENT, "--log", log).exit_code == 0
    lines = log.read_text(encoding="utf-8").splitlines()
    record = json.loads(lines[3])
    record["e"] = f"\u009b2J{record['e']}"
    lines[3] = json.dumps(record, ensure_ascii=False)
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    r = run("replay", log)
    assert r.exit_code == 1 and "\u009b" not in r.output and "U+009B" in r.output, r.output


# ---- the lint cache: an entry that is not what rulekit wrote ------------------------------------------------

def _entries(root: Path) -> tuple[Path, dict]:
    path = cache.cache_dir(root) / "lint-files.json"
    return path, json.loads(path.read_text(encoding="utf-8"))


def _key(d) -> tuple:
    return d.file, d.line, d.col, d.code, d.message


CORRUPT = {
    "data a list": lambda e: (e["facts"]["drafts"][0]["loc"].__setitem__("data", [1, 2]),
                              e["facts"]["drafts"][0].__setitem__("valid", False)),
    "data text": lambda e: (e["facts"]["drafts"][0]["loc"].__setitem__("data", "x"),
                            e["facts"]["drafts"][0].__setitem__("valid", False)),
    "valid without a kind": lambda e: e["facts"]["drafts"][0].update(kind=None, valid=True),
    "another file": lambda e: e["facts"]["drafts"][0].__setitem__("file", "/elsewhere.yaml"),
    "a diagnostic of another file": lambda e: e["facts"]["checked"][0]["diags"].append(
        ["RK201", "error", "x", "\0", 1, 1, 1, 2, None]),
    "an unknown code": lambda e: e["facts"]["diags"].append(["RK999", "error", "x", e["facts"]["drafts"][0]["file"],
                                                             1, 1, 1, 2, None]),
    "a negative line": lambda e: e["facts"]["diags"].append(["RK201", "error", "x", e["facts"]["drafts"][0]["file"],
                                                             -1, 1, 1, 2, None]),
    "no id": lambda e: e["facts"]["drafts"][0]["loc"]["data"].pop("id"),
}


@pytest.mark.parametrize("corrupt", list(CORRUPT), ids=list(CORRUPT))
def test_a_malformed_cache_entry_is_a_miss_and_is_replaced(content, corrupt):
    expected = sorted(map(_key, check_paths([content])[1]))
    assert sorted(map(_key, lint([content]).diagnostics)) == expected
    path, stored = _entries(content)
    file = str(content / "policies" / "cards.yaml")
    good = json.dumps(stored["entries"][file], sort_keys=True)
    CORRUPT[corrupt](stored["entries"][file])
    path.write_text(json.dumps(stored, ensure_ascii=False), encoding="utf-8")
    r = run("lint", content, "--output-format", "concise")
    assert r.exit_code == 0 and "internal error" not in r.output, r.output
    assert sorted(map(_key, lint([content]).diagnostics)) == expected
    assert json.dumps(_entries(content)[1]["entries"][file], sort_keys=True) == good

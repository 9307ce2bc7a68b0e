"""Loading content: positions inside YAML, schemas, duplicates, filtering, rules, and the real content/."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulekit.content.loader import check_paths, load_content
from rulekit.content.rules import DEFAULT_RULES, load_rules, merge_rules
from rulekit.content.yamlpos import parse_yaml
from rulekit.language import ast
from rulekit.language.diagnostics import ContentError
from tests.conftest import CONTENT


HOSPITAL = """\
- id: hospital_expansion
  name: 医院扩容
  stage: 1
  price: [2, 3, 4]
  effect: |
    on play:
      medical += 1
"""


def write(root: Path, files: dict[str, str | bytes], rules: bool = True) -> Path:
    """A content folder holding these files (and a rules.yaml, which every content folder needs)."""
    if rules and "rules.yaml" not in files and not (root / "rules.yaml").exists():
        files = {"rules.yaml": "players: 4\n", **files}
    for rel, body in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(body, bytes):
            p.write_bytes(body)
        else:
            p.write_text(body, encoding="utf-8")
    return root


def diags(root: Path, code: str | None = None):
    _, found = check_paths([root])
    return [d for d in found if code is None or d.code == code]


def errors(root: Path):
    return [d for d in diags(root) if d.severity == "error"]


# ---- a whole content folder ----------------------------------------------------------------

def test_the_tests_deck_loads_without_errors():
    content = load_content(CONTENT)
    assert content.lookup("医院扩容").price == (2, 3, 4)
    assert {c.kind for c in content.cards} == {"advisor", "policy", "event", "combo"}
    _, found = check_paths([CONTENT])
    assert [d for d in found if d.severity == "error"] == []


# ---- positions inside YAML -----------------------------------------------------------------

def test_a_typo_inside_a_block_is_reported_at_the_files_own_line_and_column(tmp_path):
    write(tmp_path, {"policies/p.yaml": HOSPITAL.replace("medical", "medicl")})
    [d] = errors(tmp_path)
    assert (d.code, d.line, d.col, d.end_col) == ("RK201", 7, 7, 13)
    assert d.file.endswith("policies/p.yaml")
    assert "did you mean 'medical' (医疗)?" in d.message


def test_positions_survive_blank_lines_comments_and_crlf(tmp_path):
    text = ("# 注释\r\n- id: a\r\n  name: 甲\r\n  stage: 1\r\n  price: 1\r\n  effect: |  # comment\r\n\r\n"
            "      on play:\r\n        # a note\r\n        medicl += 1\r\n")
    write(tmp_path, {"policies/p.yaml": text})
    [d] = errors(tmp_path)
    assert (d.line, d.col) == (10, 9)


def test_a_typo_in_a_combo_when_is_at_its_column(tmp_path):
    write(tmp_path, {"policies/p.yaml": HOSPITAL,
                     "combos/c.yaml": '- id: c\n  name: 连\n  when: played("医院扩") and infected > 2\n'
                                      "  effect: |\n    on resolve:\n      policy += 1\n"})
    [d] = errors(tmp_path)
    assert (d.code, d.line, d.col) == ("RK224", 3, 16)
    assert "did you mean '医院扩容'" in d.message


def test_every_problem_of_every_file_in_one_run(tmp_path):
    write(tmp_path, {
        "policies/a.yaml": HOSPITAL.replace("medical", "medicl").replace("[2, 3, 4]", "abc"),
        "events/e.yaml": "id: ev\nname: 事件\neffect: |\n  on resolve:\n    policy -= 1\n",
        "advisors/x.yaml": "id: x\nname: 顾\neffect: |\n  on setup:\n    rmove 1 mild\n",
    })
    assert sorted(d.code for d in errors(tmp_path)) == ["RK010", "RK201", "RK202", "RK212"]


# ---- YAML problems, never a traceback ------------------------------------------------------------

def test_duplicate_keys_are_reported_at_the_second_key(tmp_path):
    write(tmp_path, {"policies/p.yaml": HOSPITAL.replace("  stage: 1\n", "  stage: 1\n  name: 又一个\n")})
    [d] = errors(tmp_path)
    assert (d.code, d.line, d.col) == ("RK003", 4, 3)
    assert "first on line 2" in d.message


@pytest.mark.parametrize("body,code,line,col", [
    ("- id: a\n  name b\n  stage: 1\n", "RK001", 2, 3),
    ("- id: a\n\tname: b\n", "RK001", 2, 1),
    ("id: a\nname: x: y\n", "RK001", 2, 8),
    ("id: a\nname: \"open\n", "RK001", 3, 1),
    (b"id: a\nname: \xb9\xfa\n", "RK002", 2, 7),
    (b"\x00\x01\x02binary", "RK002", 1, 1),
    ("a: 1\n---\nb: 2\n", "RK001", 2, 1),
])
def test_bad_yaml_gives_a_plain_message_with_its_position(tmp_path, body, code, line, col):
    write(tmp_path, {"policies/p.yaml": body})
    [d] = errors(tmp_path)
    assert (d.code, d.line, d.col) == (code, line, col)
    assert "Traceback" not in d.message


def test_tabs_are_explained(tmp_path):
    write(tmp_path, {"policies/p.yaml": "- id: a\n\tname: b\n"})
    [d] = errors(tmp_path)
    assert "tab" in d.message


def test_an_empty_file_is_a_warning(tmp_path):
    write(tmp_path, {"policies/p.yaml": "# nothing yet\n", "policies/q.yaml": HOSPITAL})
    [d] = diags(tmp_path, "RK004")
    assert d.severity == "warning"
    load_content(tmp_path)


def test_alias_bombs_and_deep_nesting_are_refused(tmp_path):
    bomb = "a: &a [1,1,1,1,1,1,1,1,1]\n" + "".join(
        f"{c}: &{c} [{', '.join(['*' + p] * 9)}]\n" for p, c in zip("abcdef", "bcdefg", strict=False))
    loc, found = parse_yaml(bomb)
    assert loc is None and found[0].code == "RK017"
    loc, found = parse_yaml("[" * 1000 + "]" * 1000)
    assert loc is None and found[0].code == "RK001"


def test_python_tags_are_refused():
    loc, found = parse_yaml("a: !!python/object/apply:os.system [echo]\n")
    assert loc is None and "not allowed" in found[0].message


# ---- schemas -----------------------------------------------------------------------------------

def test_an_unknown_field_suggests_the_nearest(tmp_path):
    write(tmp_path, {"policies/p.yaml": HOSPITAL.replace("  price:", "  pirce:")})
    [d] = errors(tmp_path)
    assert (d.code, d.line, d.col) == ("RK011", 4, 3)
    assert "did you mean 'price'" in d.message


def test_a_field_of_another_kind(tmp_path):
    write(tmp_path, {"events/e.yaml": "id: e\nname: 事\nprice: 2\neffect: |\n  on resolve:\n"
                                      "    each player:\n      money += 1\n"})
    [d] = errors(tmp_path)
    assert d.code == "RK011" and "only policy cards" in d.message


@pytest.mark.parametrize("field,value,words", [
    ("price", "abc", "price must be a whole number from 0 to 1,000,000,000, or a list of them such as [2, 3, 4], got 'abc'"),
    ("price", "[]", "price must be"),
    ("stage", "4", "stage must be 1, 2 or 3, got 4"),
    ("copies", "-1", "copies must be"),
    ("duration", "forever", "duration must be lasting, round, or a number of rounds (1 to 100), got 'forever'"),
    ("switchable", "'yes'", "switchable must be true or false"),
    ("status", "maybe", "status must be designed, proposed or tbd"),
])
def test_schema_errors_are_plain_and_at_the_value(tmp_path, field, value, words):
    body = HOSPITAL.replace("  stage: 1\n", "  stage: 1\n" + f"  {field}: {value}\n") \
        if field not in ("price", "stage") else HOSPITAL.replace(f"  {field}: ", f"  {field}: {value} #")
    write(tmp_path, {"policies/p.yaml": body})
    [d] = errors(tmp_path)
    assert d.code == "RK010" and words in d.message
    line = next(i for i, ln in enumerate(body.splitlines(), 1) if ln.startswith(f"  {field}:"))
    assert (d.line, d.col) == (line, len(field) + 5)


def test_a_missing_effect_needs_tbd(tmp_path):
    write(tmp_path, {"policies/p.yaml": "- id: a\n  name: 甲\n  stage: 1\n  price: 1\n"})
    [d] = errors(tmp_path)
    assert d.code == "RK012" and "status: tbd" in d.hint


def test_bad_ids(tmp_path):
    write(tmp_path, {"policies/p.yaml": HOSPITAL.replace("hospital_expansion", "Hospital-Expansion")})
    [d] = errors(tmp_path)
    assert d.code == "RK010" and "snake_case" in d.message and (d.line, d.col) == (1, 7)


# ---- whole-folder checks ----------------------------------------------------------------------------

def test_duplicate_ids_across_files_point_at_the_second_and_name_the_first(tmp_path):
    write(tmp_path, {"policies/a.yaml": HOSPITAL,
                     "policies/b.yaml": HOSPITAL.replace("医院扩容", "医院扩容二")})
    [d] = errors(tmp_path)
    assert d.code == "RK301" and d.file.endswith("b.yaml") and (d.line, d.col) == (1, 7)
    assert "a.yaml:1" in d.message


def test_duplicate_names_only_within_a_kind(tmp_path):
    write(tmp_path, {"policies/a.yaml": HOSPITAL,
                     "policies/b.yaml": HOSPITAL.replace("hospital_expansion", "other"),
                     "advisors/c.yaml": "id: adv\nname: 医院扩容\neffect: |\n  on setup:\n    money += 1\n"})
    [d] = errors(tmp_path)
    assert d.code == "RK302" and d.file.endswith("b.yaml") and d.line == 2


def test_tbd_and_proposed_filtering(tmp_path):
    write(tmp_path, {"policies/p.yaml": HOSPITAL + """\
- id: later
  name: 以后再说
  stage: 2
  price: 1
  status: tbd
- id: idea
  name: 提案
  stage: 3
  price: 1
  status: proposed
  effect: |
    on play:
      money += 1
"""})
    def ids(c):
        return [x.id for x in c.cards]
    assert ids(load_content(tmp_path)) == ["hospital_expansion", "idea"]
    assert ids(load_content(tmp_path, only_designed=True)) == ["hospital_expansion"]
    with_tbd = load_content(tmp_path, include_tbd=True)
    assert ids(with_tbd) == ["hospital_expansion", "later", "idea"]
    assert with_tbd.lookup("later").effect is None
    infos = {d.code: d.message for d in diags(tmp_path) if d.severity == "info"}
    assert infos["RK305"].startswith("1 proposed card") and infos["RK306"].startswith("1 card is marked tbd")


def test_card_defaults(tmp_path):
    write(tmp_path, {"policies/p.yaml": HOSPITAL + "- id: two\n  name: 二\n  stage: 2\n  price: 3\n"
                                                   "  effect: |\n    on play:\n      money += 1\n",
                     "events/e.yaml": "id: e\nname: 事\neffect: |\n  on resolve:\n    each player:\n"
                                      "      money += 1\n"})
    c = load_content(tmp_path)
    assert (c.lookup("医院扩容").copies, c.lookup("二").copies, c.lookup("e").copies) == (3, 2, 1)
    assert c.lookup("二").price == (3,) and c.lookup("二").duration == "lasting" and c.lookup("二").score == 0
    assert c.lookup("医院扩容").line == 1 and c.lookup("二").line == 8


def test_a_combo_that_can_never_fire(tmp_path):
    write(tmp_path, {"policies/p.yaml": HOSPITAL + "- id: later\n  name: 以后\n  stage: 1\n  price: 1\n  status: tbd\n",
                     "events/e.yaml": "id: gone\nname: 无\ncopies: 0\neffect: |\n  on resolve:\n"
                                      "    each player:\n      money += 1\n",
                     "combos/c.yaml": '- id: c1\n  name: 一\n  when: played("以后") and infected > 2\n'
                                      '  effect: |\n    on resolve:\n      policy += 1\n'
                                      '- id: c2\n  name: 二\n  when: not happened("gone")\n'
                                      '  effect: |\n    on resolve:\n      policy += 1\n'})
    [d] = diags(tmp_path, "RK303")
    assert d.severity == "warning" and d.line == 3 and "'以后' is tbd" in d.message


def test_a_stage_with_fewer_cards_than_players(tmp_path):
    write(tmp_path, {"policies/p.yaml": HOSPITAL, "rules.yaml": "players: 3\n"})
    found = diags(tmp_path, "RK304")
    assert [d.message.split(" has")[0] for d in found] == ["stage 2", "stage 3"]
    assert "for 3 players" in found[0].message


def test_yaml_outside_the_known_folders_warns_and_other_files_are_ignored(tmp_path):
    write(tmp_path, {"policies/p.yaml": HOSPITAL, "drafts/x.yaml": "a: 1\n", "README.md": "# hi\n",
                     "policies/notes.txt": "not yaml"})
    [d] = diags(tmp_path, "RK007")
    assert d.file.endswith("drafts/x.yaml") and d.severity == "warning"
    assert errors(tmp_path) == []


def test_a_card_whose_kind_contradicts_its_folder(tmp_path):
    write(tmp_path, {"policies/p.yaml": HOSPITAL.replace("  stage: 1\n", "  stage: 1\n  kind: event\n")})
    assert [d.code for d in errors(tmp_path)] == ["RK013"]


def test_linting_one_file_resolves_references_but_reports_only_that_file(tmp_path):
    write(tmp_path, {"policies/p.yaml": HOSPITAL.replace("medical", "medicl"),
                     "combos/c.yaml": '- id: c\n  name: 连\n  when: played("医院扩容")\n'
                                      "  effect: |\n    on resolve:\n      policy += 1\n"})
    _, found = check_paths([tmp_path / "combos" / "c.yaml"])
    assert found == []
    _, found = check_paths([tmp_path / "policies"])
    assert [d.code for d in found if d.severity != "info"] == ["RK201"]


def test_a_missing_path(tmp_path):
    content, found = check_paths([tmp_path / "nope"])
    assert content is None and [d.code for d in found] == ["RK008"]
    with pytest.raises(ContentError):
        load_content(tmp_path / "nope")


def test_loading_is_deterministic(tmp_path):
    write(tmp_path, {"policies/b.yaml": HOSPITAL.replace("hospital_expansion", "b").replace("医院扩容", "乙"),
                     "policies/a.yaml": HOSPITAL})
    first = load_content(tmp_path)
    assert [c.id for c in first.cards] == ["hospital_expansion", "b"]
    assert load_content(tmp_path) == first


# ---- extra cards from a scenario -----------------------------------------------------------------------

def test_extra_cards_keep_their_positions(tmp_path):
    write(tmp_path, {"policies/p.yaml": HOSPITAL})
    scenario = ("scenario: test\ncards:\n  - kind: policy\n    id: new_card\n    stage: 1\n    price: 1\n"
                "    effect: |\n      on play:\n        medicl += 1\n")
    loc, _ = parse_yaml(scenario, "s.scenario.yaml")
    with pytest.raises(ContentError) as err:
        load_content(tmp_path, extra_cards=[(loc.sub(("cards", 0)), "s.scenario.yaml")])
    [d] = err.value.diagnostics
    assert (d.file, d.line, d.col) == ("s.scenario.yaml", 9, 9)


def test_extra_cards_join_the_content(tmp_path):
    write(tmp_path, {"policies/p.yaml": HOSPITAL})
    extra = {"kind": "combo", "id": "c", "name": "连", "when": 'played("医院扩容")',
             "effect": "on resolve:\n  policy += 1\n"}
    content = load_content(tmp_path, extra_cards=[(extra, "s.yaml")])
    assert content.lookup("c").kind == "combo" and content.lookup("c").when is not None
    with pytest.raises(ContentError) as err:
        load_content(tmp_path, extra_cards=[({"id": "x", "effect": "on play:\n  money += 1\n"}, "s.yaml")])
    assert [d.code for d in err.value.diagnostics] == ["RK013"]


# ---- rules --------------------------------------------------------------------------------------------------

def test_rules_defaults_and_deep_merge(tmp_path):
    write(tmp_path, {"rules.yaml": "players: 3\ntiles:\n  shuffle: per_player\n"})
    rules = load_rules(tmp_path / "rules.yaml", {"discovery": {"per_round": 0}, "hand_limit": 7})
    assert rules["players"] == 3 and rules["tiles"] == {"infected_per_player": 5, "shuffle": "per_player"}
    assert rules["discovery"]["per_round"] == 0 and rules["hand_limit"] == 7
    assert load_rules(None, None) == DEFAULT_RULES
    assert merge_rules({"a": {"b": 1, "c": 2}}, {"a": {"c": None}}) == {"a": {"b": 1, "c": None}}


def test_rules_errors_are_at_their_values(tmp_path):
    write(tmp_path, {"rules.yaml": "players: 5\ntiles:\n  shufle: global\nunlock:\n  stage2: \"infectd > 12\"\n"})
    with pytest.raises(ContentError) as err:
        load_rules(tmp_path / "rules.yaml")
    found = [(d.code, d.line, d.col) for d in err.value.diagnostics]
    assert found == [("RK010", 1, 10), ("RK011", 3, 3), ("RK211", 5, 12)]
    assert "did you mean 'shuffle'" in err.value.diagnostics[1].message


def test_rules_overrides_are_checked():
    with pytest.raises(ContentError) as err:
        load_rules(None, {"max_round": 3})
    assert "did you mean 'max_rounds'" in err.value.diagnostics[0].message


def test_unlock_conditions_must_be_true_or_false(tmp_path):
    write(tmp_path, {"policies/p.yaml": HOSPITAL, "rules.yaml": "unlock:\n  stage3: severe + dead\n"})
    [d] = errors(tmp_path)
    assert (d.code, d.line, d.col) == ("RK226", 2, 11)


def test_the_default_unlock_conditions_pass(tmp_path):
    write(tmp_path, {"policies/p.yaml": HOSPITAL,
                     "rules.yaml": "unlock:\n  stage2: \"{}\"\n  stage3: \"{}\"\n".format(DEFAULT_RULES["unlock"]["stage2"],
                                                                                          DEFAULT_RULES["unlock"]["stage3"])})
    assert errors(tmp_path) == []


def test_a_full_width_colon_in_yaml_is_named_and_pointed_at(tmp_path):
    write(tmp_path, {"policies/p.yaml": HOSPITAL.replace("  name: 医院扩容", "  name：医院扩容")})
    [d] = errors(tmp_path)
    assert (d.code, d.line, d.col) == ("RK001", 2, 7)
    assert "full-width '：'" in d.message and "':'" in d.message


# ---- unlock conditions: parsed and checked once, when the content is loaded ---------------------------

def test_the_unlock_conditions_are_parsed_once_with_positions_in_rules_yaml(tmp_path):
    write(tmp_path, {"policies/p.yaml": HOSPITAL,
                     "rules.yaml": "players: 4\nunlock:\n  stage2: \"infected > 3\"\n"})
    content = load_content(tmp_path)
    stage2, stage3 = content.unlock["stage2"].condition, content.unlock["stage3"].condition
    assert isinstance(stage2, ast.Compare) and stage2.right == ast.Num(ast.Pos(3, 23, 3, 24), 3)
    assert (stage2.pos.line, stage2.pos.col) == (3, 12)
    assert content.unlock_files == {"stage2": str(tmp_path / "rules.yaml"), "stage3": "rulekit's default rules"}
    assert isinstance(stage3, ast.BoolOp)          # the default, parsed the same way
    assert content.unlock["stage2"].reads == {"board"}, "the checker says what a condition reads"


def test_an_unlock_condition_dividing_by_a_count_warns_in_rules_yaml(tmp_path):
    write(tmp_path, {"policies/p.yaml": HOSPITAL,
                     "rules.yaml": "players: 4\nunlock:\n  stage2: \"infected // dead > 1\"\n"})
    [d] = diags(tmp_path, "RK236")
    assert (d.severity, d.file, d.line, d.col) == ("warning", str(tmp_path / "rules.yaml"), 3, 24)
    assert "stops with an error" in d.message and "max(1, dead)" in d.hint


def test_a_broken_unlock_condition_is_an_error_in_rules_yaml(tmp_path):
    write(tmp_path, {"policies/p.yaml": HOSPITAL, "rules.yaml": "unlock:\n  stage2: \"infected >\"\n"})
    [d] = errors(tmp_path)
    assert (d.code, d.line, d.col) == ("RK101", 2, 22)
    with pytest.raises(ContentError):
        load_content(tmp_path)

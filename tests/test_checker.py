"""The checker: what a designer sees for each kind of mistake in an effect, and that good effects pass."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulekit.language.checker import CODES, check_condition, check_program
from rulekit.language import ast
from rulekit.language.parser import Origin, parse_effect, parse_expression

CARDS = {"policy": ["公共墓园", "public_cemetery", "医院扩容"], "event": ["游行示威", "demonstrations"]}


def refs(kind: str, ref: str) -> bool:
    return ref in CARDS.get(kind, ())


def check(src: str, kind: str = "policy"):
    program, syntax = parse_effect(src, Origin("card.yaml", 1, 1, 0))
    assert not syntax, syntax
    return check_program(program, kind, refs, "card.yaml", card_names=CARDS)


def codes(src: str, kind: str = "policy") -> list[str]:
    return [d.code for d in check(src, kind)]


def cond(src: str):
    expr, syntax = parse_expression(src, Origin("rules.yaml", 5, 11))
    assert not syntax, syntax
    return check_condition(expr, "rules.yaml", refs, "unlock.stage2", card_names=CARDS)


# ---- every card of the spec passes -------------------------------------------------------

# Every card of the design document as written in docs/language.md (events: the lines under `on resolve:`).
SPEC_ADVISORS = {
    "tycoon": "on setup:\n  money += 5\n",
    "epidemiologist": "on setup:\n  medical += 2\n",
    "visionary": "on setup:\n  unlock stage 3\n",
    "beloved": "on setup:\n  policy += 2\n",
    "security_team": "shield hand, money\n",
    "councillor": "once when overthrown:\n  prevent\n  policy = -9\n",
    "investor": "on setup:\n  economy += 1\n",
    "auctioneer": "when unsold:\n  may:\n    discard it\n    money += 3\n",
    "planner": "on setup:\n  arrange 10 tiles\n",
    "lobbyist": "modify final_penalty by -1\n",
}
SPEC_POLICIES = {
    "shut_the_door": "react reveal mild:\n  remove it\n",
    "hospital_expansion": "on play:\n  medical += 1\n",
    "brainstorm": "on play:\n  draw 3 from stage 1 keep 1\n",
    "immune_training": "modify new_severe by -1 min 1\n",
    "chloride_cure": "on play:\n  remove 1 resident\n  policy -= 1\n",
    "policy_reserve": "on play:\n  draw 2 from stage 2\n",
    "vaccination": "modify new_mild by -uses min 1\n",
    "execute_infected": "on play:\n  remove any infected as n\n  policy -= 2 * n\n",
    "life_support": "when death:\n  may pay 5:\n    prevent\n",
    "emergency_plan": "on play:\n  draw 5 from stage 3 keep 3\n",
}
SPEC_EVENTS = {
    "demonstrations": "each player where infected > healthy:\n  policy -= 1\n  disease += 1\n",
    "audit": "each player where money < 5:\n  policy -= 1\n",
    "food_shortage": "each player:\n  pay alive // 5 as unpaid\n  policy -= unpaid\n",
    "united": "player with highest score:\n  policy += 3\n",
    "last_stand": "player with lowest score:\n  policy += 3\n",
    "doctor_death": "player with most infected:\n  policy -= 2\n  medical -= 1\n",
    "doctor_protest": ("player with lowest policy:\n  choose k from 0 to min(3, money // 3)\n  spend 3 * k\n"
                       "  medical -= 3 - k\n  if k == 0 or medical == 0:\n    policy -= 1\n"),
    "charity": "each player where policy > 0:\n  money += 3\n",
    "mutation": "each player:\n  disease += 1\n",
    "resistance": "each player:\n  medical -= 1\n",
    "drug_abuse": "player with highest medical:\n  medical -= 1\n",
    "mutation_race": "player with most infected:\n  medical -= 1\n  disease += 1\n",
    "conspiracy": "player with highest medical:\n  policy -= 1\n",
    "price_of_resistance": "player with highest policy:\n  kill 1 healthy\n",
}


def _event(lines: str) -> str:
    return "on resolve:\n" + "".join("  " + ln + "\n" for ln in lines.splitlines())


SPEC_CARDS = ([("advisor", k, v) for k, v in SPEC_ADVISORS.items()]
              + [("policy", k, v) for k, v in SPEC_POLICIES.items()]
              + [("event", k, _event(v)) for k, v in SPEC_EVENTS.items()]
              + [("combo", "quiet_graves", "on resolve:\n  policy += 1\n")])


def test_the_spec_combo_condition_passes():
    assert cond('played("公共墓园") and happened("游行示威")') == []


@pytest.mark.parametrize("kind,card_id,effect", SPEC_CARDS, ids=[c[1] for c in SPEC_CARDS])
def test_every_card_of_the_spec_passes(kind, card_id, effect):
    assert check(effect, kind) == []


# ---- unknown words, with did-you-mean ------------------------------------------------------

def test_unknown_track_suggests_the_nearest_with_its_chinese_name():
    [d] = check("on play:\n  medicl += 1\n")
    assert d.code == "RK201" and d.severity == "error"
    assert "unknown track 'medicl' — did you mean 'medical' (医疗)?" in d.message
    assert (d.line, d.col, d.end_col) == (2, 3, 9)


def test_a_chinese_track_name_points_to_the_english_word():
    [d] = check("on play:\n  医疗 += 1\n")
    assert "did you mean 'medical'" in d.message


def test_counts_and_quantities_are_not_tracks():
    ds = check("on play:\n  mild += 1\n  new_mild += 1\n")
    assert [d.code for d in ds] == ["RK201", "RK201"]
    assert "board count" in ds[0].message and "cure" in ds[0].hint
    assert "modify new_mild" in ds[1].hint


@pytest.mark.parametrize("src,code,word", [
    ("on play:\n  rmove 1 mild\n", "RK202", "did you mean 'remove'"),
    ("on play:\n  kill 1 helthy\n", "RK203", "did you mean 'healthy'"),
    ("modify new_mld by 1\n", "RK204", "did you mean 'new_mild'"),
    ("when deth:\n  prevent\n", "RK205", "did you mean 'death'"),
    ("on treatmnt end:\n  money += 1\n", "RK206", "did you mean 'treatment'"),
    ("on play:\n  player with higest score:\n    money += 1\n", "RK207", "did you mean 'highest'"),
    ("shield hand, mony\n", "RK208", "did you mean 'money'"),
    ("seal bordr\n", "RK209", "did you mean 'border'"),
    ("on play:\n  money += mx(1, 2)\n", "RK210", "did you mean 'max'"),
    ("on play:\n  money += helthy\n", "RK211", "did you mean 'healthy'"),
])
def test_every_unknown_word_has_a_suggestion(src, code, word):
    ds = check(src)
    assert [d.code for d in ds] == [code]
    assert word in ds[0].message


def test_unknown_name_suggests_a_name_in_scope():
    [d] = check("on play:\n  pay 2 as unpaid\n  policy -= unpayed\n")
    assert d.code == "RK211" and "did you mean 'unpaid'" in d.message
    assert (d.line, d.col) == (3, 13)


# ---- subjects, it, prevent, uses ------------------------------------------------------------

def test_an_event_has_no_subject_until_a_player_block():
    ds = check("on resolve:\n  policy -= 1\n  draw 1 from stage 1\n  each player:\n    policy -= 1\n", "event")
    assert [(d.code, d.line) for d in ds] == [("RK212", 2), ("RK212", 3)]
    assert "each player" in ds[0].hint


def test_an_event_cannot_read_a_players_value_outside_a_player_block():
    ds = check("on resolve:\n  if money > 3:\n    each player:\n      policy += 1\n", "event")
    assert [(d.code, d.line, d.col) for d in ds] == [("RK212", 2, 6)]


def test_each_other_player_needs_a_player_in_an_event():
    assert codes("on resolve:\n  each other player:\n    policy -= 1\n", "event") == ["RK212"]
    assert codes("on resolve:\n  each player:\n    each other player:\n      policy -= 1\n", "event") == []


def test_player_with_gives_the_subject_and_its_expression_reads_it():
    assert codes("on resolve:\n  player with most infected:\n    kill 1 healthy\n", "event") == []


def test_it_outside_a_trigger_handler():
    [d] = check("on play:\n  remove it\n")
    assert d.code == "RK213"


def test_it_of_the_wrong_type():
    [d] = check("react reveal mild:\n  discard it\n")
    assert d.code == "RK214" and "card" in d.message and "cell" in d.message
    [d] = check("when unsold:\n  remove it\n", "advisor")
    assert d.code == "RK214"


def test_a_verb_on_it_that_can_never_act_is_a_warning():
    [d] = check("when reveal healthy:\n  cure it\n")
    assert (d.code, d.severity) == ("RK230", "warning")


def test_it_in_overthrown_gives_nothing():
    assert codes("once when overthrown:\n  remove it\n", "advisor") == ["RK213"]


def test_prevent_only_in_death_or_overthrown():
    assert codes("on play:\n  prevent\n") == ["RK215"]
    assert codes("when reveal:\n  prevent\n") == ["RK215"]
    assert codes("when death:\n  may pay 5:\n    prevent\n") == []


def test_uses_only_in_policies():
    assert codes("modify new_mild by -uses min 1\n", "advisor") == ["RK216"]
    assert codes("modify new_mild by -uses min 1\n", "policy") == []


# ---- kinds and handlers ------------------------------------------------------------------------

def test_a_verb_with_a_kind_it_cannot_take():
    [d] = check("on play:\n  cure 2 severe\n")
    assert d.code == "RK217" and d.hint == "`cure` takes: mild"
    assert (d.line, d.col) == (2, 10)


def test_reveal_and_arrange_need_tiles():
    assert codes("on play:\n  reveal 2 mild\n") == ["RK217"]
    assert codes("on setup:\n  arrange 10 tiles\n", "advisor") == []
    assert codes("on play:\n  kill 1 tiles\n") == ["RK217"]


@pytest.mark.parametrize("src,kind", [
    ("on play:\n  policy += 1\n", "event"),
    ("on resolve:\n  policy += 1\n", "policy"),
    ("on setup:\n  policy += 1\n", "policy"),
    ("on round start:\n  policy += 1\n", "event"),
    ("when death:\n  prevent\n", "combo"),
    ("react reveal mild:\n  remove it\n", "advisor"),
    ("modify income by 1\n", "event"),
    ("shield hand\n", "combo"),
])
def test_handlers_a_card_kind_cannot_have(src, kind):
    assert "RK218" in codes(src, kind)


def test_phase_handlers_need_start_or_end():
    assert codes("on treatment:\n  money += 1\n") == ["RK206"]
    assert codes("on treatment finish:\n  money += 1\n") == ["RK206"]
    assert codes("on round start:\n  money += 1\n") == []


def test_duplicate_handlers_are_a_warning_pointing_at_the_first():
    [d] = check("on play:\n  money += 1\non play:\n  money += 2\n")
    assert (d.code, d.severity, d.line) == ("RK219", "warning", 3)
    assert "line 1" in d.message


def test_event_without_on_resolve_never_runs():
    [d] = check("# only a comment\n", "event")
    assert (d.code, d.severity) == ("RK231", "warning")


# ---- numbers that are out of range --------------------------------------------------------------

def test_keep_more_than_drawn_and_stages():
    ds = check("on play:\n  draw 3 from stage 4 keep 5\n  unlock stage 0\n")
    assert [d.code for d in ds] == ["RK220", "RK221", "RK220"]


def test_repeat_limit_and_empty_choose():
    ds = check("on play:\n  repeat 101:\n    money += 1\n  choose k from 3 to 1\n")
    assert [d.code for d in ds] == ["RK222", "RK223"]


def test_division_by_zero():
    assert codes("on play:\n  money += 3 // 0\n") == ["RK232"]


# A name's value follows `+=`, `-=` and `=` exactly through straight-line code; after a block that may
# or may not run it is either value, and after a loop it is unknown.
@pytest.mark.parametrize("lines", [
    "let k = 0\n  k += 1\n  after k rounds:\n    money += 1",
    "let k = 0\n  k += 1\n  money += 4 // k",
    "let k = 0\n  k += 1\n  choose n from 1 to k\n  money += n",
    "let k = 0\n  k = 2\n  money += 4 // k",
    "let k = 1\n  after 1 rounds:\n    k -= 1\n    money += k\n  money += 4 // k",
    "let k = 5\n  may:\n    k -= 1\n  money += 4 // k",
])
def test_a_name_changed_to_a_safe_value_is_not_refused(lines):
    assert codes(f"on play:\n  {lines}\n") == []


def test_a_name_changed_to_zero_is_known_to_be_zero():
    ds = check("on play:\n  let k = 5\n  k -= 5\n  money += 6 // k\n  let r = 1\n  r -= 1\n"
               "  after r rounds:\n    money += 1\n")
    assert [(d.code, d.line) for d in ds] == [("RK232", 4), ("RK223", 7)]


@pytest.mark.parametrize("lines", [
    "if money > 2:\n    k -= 5",
    "may:\n    k -= 5",
    "repeat 3:\n    k -= 1",
    "each player:\n    k -= 1",
])
def test_a_name_changed_in_a_block_may_be_zero_after_it(lines):
    [d] = check(f"on play:\n  let k = 5\n  {lines}\n  money += 6 // k\n")
    assert (d.code, d.severity) == ("RK236", "warning")


def test_a_name_changed_in_a_loop_is_unknown_from_its_first_turn():
    [d] = check("on play:\n  let k = 5\n  repeat 3:\n    money += 6 // k\n    k -= 5\n")
    assert (d.code, d.line) == ("RK236", 4)


def test_an_if_joins_the_values_of_its_branches():
    assert codes("on play:\n  let k = 1\n  if money > 2:\n    k = 2\n  else:\n    k = 3\n  money += 6 // k\n") == []
    assert codes("on play:\n  let k = 1\n  if money > 2:\n    k = 0\n  else:\n    k = 0\n  money += 6 // k\n") \
        == ["RK232"]


def test_a_name_that_grows_past_the_number_limit_is_reported_where_it_does():
    [d] = check("on play:\n  let k = 999999999\n  k += 999999999\n")
    assert (d.code, d.line) == ("RK233", 3)


# ---- card references ------------------------------------------------------------------------------

def test_references_by_id_or_name():
    assert codes('on play:\n  if played("公共墓园") and happened("demonstrations"):\n    money += 1\n') == []


def test_a_reference_that_does_not_exist_suggests_the_nearest():
    [d] = check('on play:\n  if played("公共墓地"):\n    money += 1\n')
    assert d.code == "RK224" and "did you mean '公共墓园'" in d.message
    assert (d.line, d.col) == (2, 13)


def test_a_reference_of_the_wrong_kind():
    [d] = check('on play:\n  if played("游行示威"):\n    money += 1\n')
    assert d.code == "RK224" and "is an event" in d.message


def test_arguments_of_calls():
    assert codes("on play:\n  if played(公共墓园):\n    money += 1\n") == ["RK225"]
    assert codes("on play:\n  money += min(1)\n") == ["RK225"]
    assert codes("on play:\n  money += abs(1, 2)\n") == ["RK225"]
    assert codes("on play:\n  if unlocked(4):\n    money += 1\n") == ["RK220"]


# ---- types -----------------------------------------------------------------------------------------

def test_if_needs_true_or_false():
    [d] = check("on play:\n  if money:\n    policy += 1\n")
    assert d.code == "RK226" and "money > 0" in d.hint


def test_a_comparison_used_as_a_number():
    [d] = check("on play:\n  money += 1 + (medical > 2)\n")
    assert d.code == "RK227" and (d.line, d.col) == (2, 17)


def test_and_or_not_need_true_or_false():
    assert codes("on play:\n  if not money and 1:\n    policy += 1\n") == ["RK226", "RK226"]


def test_quoted_names_are_not_numbers():
    assert codes('on play:\n  money += "公共墓园"\n') == ["RK227"]


# ---- names and scopes -------------------------------------------------------------------------------

def test_a_name_defined_twice_in_its_reach():
    [d] = check("on play:\n  let k = 1\n  if k > 0:\n    let k = 2\n")
    assert d.code == "RK228" and "line 2" in d.message and d.line == 4


def test_sibling_blocks_may_reuse_a_name():
    assert codes("on play:\n  if money > 1:\n    let k = 1\n    policy += k\n  else:\n    let k = 2\n"
                 "    policy += k\n") == []


def test_a_name_is_not_visible_outside_its_block_or_before_it():
    ds = check("on play:\n  policy += k\n  if money > 1:\n    let k = 1\n  policy += k\n")
    assert [(d.code, d.line) for d in ds] == [("RK211", 2), ("RK211", 5)]


@pytest.mark.parametrize("name", ["money", "mild", "tiles", "round", "medical"])
def test_reserved_words_cannot_be_names(name):
    assert codes(f"on play:\n  let {name} = 1\n") == ["RK229"]


def test_as_and_choose_names():
    assert codes("on play:\n  remove any infected as n\n  policy -= 2 * n\n") == []
    assert codes("on play:\n  choose n from 0 to 2\n  pay n as n\n") == ["RK228"]


def test_modify_may_use_uses_and_counts_and_min():
    assert codes("modify new_mild by -uses - infected // 5 min 1\n") == []


# ---- all problems in one pass ------------------------------------------------------------------------

def test_every_problem_is_reported_in_one_pass():
    src = ("on play:\n  medicl += 1\n  cure 2 severe\n  rmove 1 mild\n  let money = 1\n  discard it\n"
           "  prevent\n  draw 3 from stage 1 keep 4\non resolve:\n  policy += 1\n")
    assert codes(src) == ["RK201", "RK217", "RK202", "RK229", "RK213", "RK215", "RK221", "RK218"]


# ---- conditions ------------------------------------------------------------------------------------------

def test_conditions_are_checked_and_must_be_true_or_false():
    assert cond("severe + dead > 12 and unlocked(2)") == []
    [d] = cond("infected + 1")
    assert d.code == "RK226" and (d.line, d.col) == (5, 11)
    [d] = cond("infectd > 12")
    assert d.code == "RK211" and "did you mean 'infected'" in d.message


def test_conditions_cannot_use_uses_or_it():
    assert [d.code for d in cond("uses > 1 and it == 1")] == ["RK216", "RK213"]


def test_every_code_is_documented():
    assert all(sev in ("error", "warning", "info") and title for sev, title in CODES.values())
    from rulekit.diagnostics.codes import R

    language = Path(__file__).resolve().parents[1] / "rulekit/language"
    src = "".join((language / name).read_text(encoding="utf-8") for name in ("checks_items.py", "checks_exprs.py"))
    used = set(re.findall(r"\bR\.([A-Z_]+)\b", src))
    assert len(used) > 40 and used <= set(R.__members__), "the checker reports only rules the table has"


# ---- what would stop a game, evident from the text -----------------------------------------------

@pytest.mark.parametrize("divisor", ["dead", "severe", "money", "policy", "k", "(dead - 1)", "abs(policy)"])
def test_dividing_by_a_value_that_can_be_0_warns_and_suggests_max(divisor):
    [d] = check(f"on play:\n  choose k from 0 to 3\n  money += infected // {divisor}\n")
    assert (d.code, d.severity) == ("RK236", "warning")
    bracketed = divisor.startswith("(")
    shown = divisor[1:-1] if bracketed else divisor
    assert d.message == f"dividing by `{shown}`, which can be 0: the game stops with an error when it is"
    assert d.hint == f"divide by `max(1, {shown})` instead"
    assert (d.line, d.col) == (3, 24 + bracketed)


@pytest.mark.parametrize("divisor", ["max(1, dead)", "(dead + 1)", "players", "round", "5", "max(dead, 2)", "n"])
def test_dividing_by_a_value_that_is_never_0_passes(divisor):
    assert check(f"on play:\n  let n = 4\n  money += infected // {divisor}\n") == []


def test_an_unlock_condition_dividing_by_a_count_warns_at_its_place():
    [d] = cond("infected // dead > 1")
    assert (d.code, d.line, d.col) == ("RK236", 5, 23)
    assert "max(1, dead)" in d.hint


def test_arithmetic_past_the_number_limit_warns_once_where_it_happens():
    effect = "on play:\n  let a1 = 100000\n" + "".join(f"  let a{i + 1} = a{i} * a{i}\n" for i in range(1, 40)) \
        + "  score += a40\n"
    [d] = check(effect)
    assert (d.code, d.severity, d.line) == ("RK233", "warning", 3)
    assert "10,000,000,000" in d.message and "1,000,000,000" in d.message
    [d] = check("on play:\n  money += 999999999 * 999999999 * 999999999\n")
    assert d.code == "RK233" and (d.col, d.end_col) == (12, 33)       # the first product already overflows


@pytest.mark.parametrize("effect, steps", [
    ("on play:\n" + "".join("  " * i + "  repeat 100:\n" for i in range(5)) + "  " * 6 + "cure 1 mild\n",
     "10,101,010,101"),
    ("on play:\n  repeat 100:\n    repeat 100:\n      repeat 2:\n        cure 1 mild\n", "30,101"),
    ("on play:\n  draw 1000000 from stage 1\n", "1,000,001"),
    ("on play:\n  repeat 100:\n    draw 200 from stage 1\n", "20,101"),
])
def test_loops_and_draws_beyond_the_steps_of_one_effect_warn_at_the_outermost(effect, steps):
    [d] = check(effect)
    assert (d.code, d.severity, d.line, d.col) == ("RK234", "warning", 2, 3)
    assert steps in d.message and "10,000" in d.message


def _counts_inside_counts(depth: int) -> str:
    condition = "money > 0"
    for _ in range(depth):
        condition = f"count(player where {condition}) > 0"
    return condition


@pytest.mark.parametrize("effect", [
    "on play:\n  if {c}:\n    money += 1\n",
    "on play:\n  money += highest({n})\n",
    "on play:\n  player with most {n}:\n    money += 1\n",
    "modify income by {n}\n",
])
def test_counts_inside_counts_beyond_the_steps_of_one_effect_warn(effect):
    """Each count(player …), highest(…) or player-with value reads for up to 4 players: seven inside one
    another read 21,844 times, more than one effect may run."""
    inner = _counts_inside_counts(6)
    [d] = check(effect.format(c=_counts_inside_counts(7), n=f"count(player where {inner})"))
    assert (d.code, d.severity) == ("RK234", "warning")
    assert "count(…), highest(…) or lowest(…)" in d.message
    assert check(effect.format(c=_counts_inside_counts(5), n=f"count(player where {_counts_inside_counts(4)})")) == []


def test_loops_within_the_steps_of_one_effect_pass():
    assert check("on play:\n  repeat 100:\n    repeat 50:\n      cure 1 mild\n") == []
    assert check("on play:\n  if dead > 1:\n    repeat 100:\n      repeat 90:\n        cure 1 mild\n"
                 "  else:\n    repeat 100:\n      repeat 90:\n        cure 1 mild\n") == []


@pytest.mark.parametrize("line, word", [
    ("money += 1000000000", "money only goes from 0 to 9,999"),
    ("score -= 100000", "score only goes from -9,999 to 9,999"),
    ("medical = 99", "medical only goes from 0 to 15"),
    ("choose n from 0 to 1000000000", "`choose n` reaches 1,000,000,000"),
    ("spend 1000000", "money never goes above 9,999"),
    ("pay 20000 as unpaid", "money never goes above 9,999"),
])
def test_amounts_the_game_can_never_hold_warn(line, word):
    [d] = check(f"on play:\n  {line}\n")
    assert (d.code, d.severity, d.line) == ("RK235", "warning", 2)
    assert word in d.message


def test_lowering_policy_past_its_floor_overthrows_and_is_left_alone():
    assert check("on play:\n  policy -= 30\n  policy = -11\n  money += 9999\n") == []


def test_a_walker_that_forgets_a_node_type_is_refused_when_it_is_made():
    from rulekit.language.visitor import Visitor

    with pytest.raises(TypeError, match=r"has no method for: .*s_Prevent"):
        class Forgetful(Visitor, walks=("statements",)):
            locals().update({f"s_{t.__name__}": lambda self, s: None
                             for t in __import__("rulekit.language.visitor", fromlist=["STATEMENTS"]).STATEMENTS
                             if t.__name__ != "Prevent"})


def test_the_compiler_takes_only_a_checked_program():
    from rulekit.model import Card
    from rulekit.interpreter.program import compile_card

    program, _ = parse_effect("on play:\n  medical += 1\n")
    with pytest.raises(TypeError, match="only a checked program"):
        compile_card(Card(kind="policy", id="raw", name="生", effect=program), "compiled")


def test_the_checked_program_says_what_each_name_means_and_what_the_effect_reads():
    from rulekit.language.checker import check_effect
    from rulekit.language.parser import parse_effect_recovering

    parsed = parse_effect_recovering("on play:\n  let n = infected\n  uses_left -= n\n  money += n + round\n")
    checked, diags = check_effect(parsed, "policy", None, "card.yaml", counters=["uses_left"])
    assert diags == []
    names = {node.name: meaning.kind for node, meaning in checked.meaning.items() if isinstance(node, ast.Name)}
    assert names == {"infected": "count", "n": "local", "round": "value"}
    assert sorted(checked.meaning[s].kind for s in checked.program.handlers[0].body if isinstance(s, ast.TrackChange)) \
        == ["counter", "track"]
    assert checked.reads == {"board", "round"}


@pytest.mark.parametrize("effect, code, says", [
    ("on play:\n  resurrect 1 dead\n", "RK202", "unknown verb 'resurrect': the language has no such word"),
    ("on play:\n  heal 1 mild\n", "RK202", "unknown verb 'heal': the language has no such word"),
    ("on play:\n  medicl += 1\n", "RK201", "did you mean 'medical'"),
])
def test_lint_suggests_only_a_slip_of_the_pen_never_another_word(effect, code, says):
    [d] = check(effect, "policy")
    assert d.code == code and says in d.message
    assert "reveal" not in d.message and "remove" not in d.message


def test_words_the_language_now_has_are_not_mistakes():
    assert check("on play:\n  move 1 mild\n", "policy") == []
    assert check("on play:\n  choose other player:\n    take 1 money\n", "policy") == []

"""Seats and turn order, others' moments and predicates (issue 18): what the checker tells a designer who
writes them wrong, and that the constructs reach both evaluators (the games themselves: tests/scenarios/340-359,
and tests/fixtures/reach/policies/reach_seats.yaml in test_evaluators_agree)."""

from __future__ import annotations

import pytest

from rulekit import registry
from rulekit.diagnostics.codes import R
from tests.test_cells import seen


# ---- 5.34 seats and turn order ---------------------------------------------------------------------------------
@pytest.mark.parametrize("src, kind", [
    ("on play:\n  player after me:\n    take 1 money\n  player before me:\n    give 1 money\n", "policy"),
    ("on play:\n  first player:\n    score += 1\n  money += turn\n", "policy"),
    ("on resolve:\n  first player:\n    money += 2\n  each player where turn >= 3:\n    medical += 1\n", "event"),
])
def test_players_by_turn_order_read_clean(src, kind):
    assert seen(src, kind) == []


def test_a_misspelt_after_gets_its_did_you_mean_at_the_word():
    assert seen("on play:\n  player aftr me:\n    money += 1\n") == [(
        R.SEAT_WORD, 2, 10, "unknown place in turn order 'aftr' — did you mean 'after' (下家)?",
        "write `player after me:` or `player before me:`")]


def test_a_misspelt_first_gets_its_did_you_mean():
    assert seen("on play:\n  frist player:\n    money += 1\n") == [(
        R.SEAT_WORD, 2, 3, "unknown place in turn order 'frist' — did you mean 'first' (先手玩家)?",
        "write `first player:`, `player after me:`, `player before me:` or (in `when other …`) `that player:`")]


def test_a_word_that_is_no_place_gets_no_guess():
    (code, _, _, message, _), = seen("on play:\n  last player:\n    money += 1\n")
    assert code == R.SEAT_WORD and message == "unknown place in turn order 'last': the language has no such word"


@pytest.mark.parametrize("src, message, hint", [
    ("on play:\n  before player:\n    money += 1\n", "the player before me is written `player before me:`",
     "write `player before me:`"),
    ("on play:\n  player first me:\n    money += 1\n", "the first player is written `first player:`, not `player first me:`",
     "write `first player:`"),
])
def test_the_two_forms_swapped_are_told_apart(src, message, hint):
    assert seen(src) == [(R.SEAT_WORD, 2, 3 if src.startswith("on play:\n  before") else 10, message, hint)]


def test_an_event_has_no_owner_to_be_after():
    assert seen("on resolve:\n  player after me:\n    money += 1\n", "event") == [(
        R.SEAT_WORD, 2, 3, "`player after me:` needs the card's owner, and an event has none",
        "an event can name `first player:`, or reach players through `each player:`")]


def test_turn_is_a_player_s_value_and_a_value_the_game_provides():
    assert [c for c, *_ in seen("on resolve:\n  each player:\n    money += turn\n", "event")] == []
    assert (R.NO_PLAYER, 2, 12) in [(c, r, k) for c, r, k, *_ in seen("on resolve:\n  money += turn\n", "event")]
    assert "turn" in registry.VALUES


def test_the_compiled_calls_name_the_place():
    from rulekit.content.loader import load_content
    from rulekit.interpreter.program import compile_card
    from tests.conftest import ROOT

    reach = load_content(ROOT / "tests" / "fixtures" / "reach")
    code = compile_card(reach.lookup("round_table"), "compiled").code
    assert code is not None
    for which in ("after", "before", "first"):
        assert f"= rt.seat_player(f, {which!r})\n" in code.source
    assert "rt.turn(" in code.source


def test_the_ring_passes_over_players_out_and_wraps():
    from types import SimpleNamespace

    from rulekit.interpreter.runtime import Runtime

    def at(order, owner, which, skip=frozenset()):
        rt = Runtime.__new__(Runtime)
        rt.g = SimpleNamespace(in_order=lambda: order)
        return rt.seat_player(SimpleNamespace(owner=owner, skip=skip), which)

    assert at((1, 2, 3, 0), 0, "after") == 1                 # the last one's next is the first player
    assert at((1, 2, 3, 0), 1, "before") == 0                # the first one's previous is the last
    assert at((1, 3, 0), 1, "after") == 3                    # seat 2 is out: passed over
    assert at((1, 3, 0), 0, "first") == 1
    assert at((0,), 0, "after") is None and at((0,), 0, "before") is None
    assert at((1, 2, 3, 0), 0, "first", skip=frozenset({1})) is None


# ---- 5.35 other players' moments ---------------------------------------------------------------------------------
@pytest.mark.parametrize("src", [
    "when other unsold:\n  money += 1\n",
    "when other cure:\n  infect it\n  cure 1 mild next to it\n",
    "when other play:\n  that player:\n    take 1 money\n",
    "once when other play:\n  that player:\n    me:\n      money += 1\n",
])
def test_other_players_moments_read_clean(src):
    assert seen(src) == []


def test_the_other_triggers_bind_it_as_their_own_do():
    for word in registry.OTHER_TRIGGERS:
        assert registry.TRIGGERS[word].binds == registry.TRIGGERS[word.split(" ", 1)[1]].binds
        assert not registry.TRIGGERS[word].preventable


def test_discard_it_in_another_s_unsold_is_refused():
    assert seen("when other unsold:\n  discard it\n") == [(
        R.OTHER_MOMENT, 2, 3, "`discard it` in `when other unsold`: the card is in another player's hand, and you can "
        "discard only your own", "act on the player whose card it is with `that player:` (5.35)")]


@pytest.mark.parametrize("src, row, col, message, hint", [
    ("when cure:\n  that player:\n    money += 1\n", 2, 3,
     "`that player:` is the player whose moment a `when other …` hears, and this is no such handler",
     "write it under `when other unsold:`, `when other cure:` or `when other play:`"),
    ("when other cure:\n  after 1 rounds:\n    that player:\n      money += 1\n", 3, 5,
     "`that player:` inside `after` comes rounds later, when the moment is over", "put `that player:` directly in the handler"),
])
def test_that_player_outside_its_moment_is_refused(src, row, col, message, hint):
    assert seen(src) == [(R.OTHER_MOMENT, row, col, message, hint)]


def test_a_misspelt_other_trigger_gets_its_did_you_mean():
    (code, row, col, message, _), = seen("when other cur:\n  money += 1\n")
    assert (code, row, col) == (R.UNKNOWN_TRIGGER, 1, 6)
    assert message == "unknown trigger 'other cur' — did you mean 'other cure' (他人治愈)?"


def test_a_content_without_other_triggers_listens_for_none():
    from rulekit.content.loader import load_content
    from rulekit.interpreter.program import Program
    from tests.conftest import CONTENT, ROOT

    assert Program(load_content(CONTENT), {}, "compiled").hears_other == frozenset()
    reach = Program(load_content(ROOT / "tests" / "fixtures" / "reach"), {}, "compiled")
    assert reach.hears_other == {"unsold", "cure", "play"}


# ---- 5.36 / 5.37 predicates -----------------------------------------------------------------------------------------
from tests.test_loader import errors, write  # noqa: E402

ADVISOR = "- id: epidemiologist\n  name: 疾病专家\n  effect: |\n    on setup:\n      medical += 2\n"


def _policy(effect: str) -> str:
    body = "".join("    " + line + "\n" for line in effect.splitlines())
    return f"- id: probe\n  name: 探针\n  stage: 1\n  price: 1\n  effect: |\n{body}"


def test_the_predicates_read_clean():
    src = ('on play:\n  if advisor("疾病专家") and tableau("x") and not switched_off("y"):\n'
           '    money += count(tableau where stage == 1)\n')
    assert seen(src) == []
    for cause in registry.CAUSES:
        assert seen(f"when cure:\n  if caused_by({cause}):\n    money += 1\n") == []


def test_a_misspelt_advisor_gets_its_did_you_mean_against_the_content(tmp_path):
    write(tmp_path, {"advisors/a.yaml": ADVISOR,
                     "policies/p.yaml": _policy('on play:\n  if advisor("疾病专象"):\n    money += 1')})
    [d] = errors(tmp_path)
    assert (d.code, d.line, d.col) == (R.UNKNOWN_CARD, 7, 18)
    assert d.message == "there is no advisor '疾病专象' — did you mean '疾病专家'?"


def test_an_advisor_asked_of_a_policy_is_named_for_what_it_is(tmp_path):
    write(tmp_path, {"advisors/a.yaml": ADVISOR,
                     "policies/p.yaml": _policy('on play:\n  if advisor("探针"):\n    money += 1')})
    [d] = errors(tmp_path)
    assert d.message == "advisor() takes an advisor, but '探针' is a policy"


def test_caused_by_a_card_the_content_lacks_gets_a_did_you_mean(tmp_path):
    write(tmp_path, {"advisors/a.yaml": ADVISOR,
                     "policies/p.yaml": _policy('when cure:\n  if caused_by("疾病专"):\n    money += 1')})
    [d] = errors(tmp_path)
    assert (d.code, d.line, d.col) == (R.UNKNOWN_CARD, 7, 20)
    assert d.message == "there is no card '疾病专' — did you mean '疾病专家'?"


@pytest.mark.parametrize("src, row, col, message, hint", [
    ("when cure:\n  if caused_by(evnt):\n    money += 1\n", 2, 16, "unknown cause 'evnt' — did you mean 'event' (事件)?",
     'causes: event, combo, mine, others, card; or a card\'s name in quotes: caused_by("卡名")'),
    ("on play:\n  if caused_by(event):\n    money += 1\n", 2, 6,
     "caused_by() asks what made a trigger's moment happen, and this is no trigger's handler",
     "use it under `when …`, `once when …` or `react …` (a trigger such as `cure`)"),
    ("when cure:\n  after 1 rounds:\n    if caused_by(mine):\n      money += 1\n", 3, 8,
     "caused_by() inside `after` comes rounds later, when the moment is over",
     "note it in the handler: `let by_event = caused_by(event)`"),
    ("when cure:\n  if caused_by(1):\n    money += 1\n", 2, 16,
     "caused_by() takes a cause (event, combo, mine, others, card) or a card's name in quotes",
     'write caused_by(event) or caused_by("卡名")'),
])
def test_caused_by_written_wrong_is_rk262(src, row, col, message, hint):
    assert seen(src) == [(R.CAUSE, row, col, message, hint)]


def test_a_word_that_is_no_cause_gets_no_guess():
    (code, _, _, message, _), = seen("when cure:\n  if caused_by(weather):\n    money += 1\n")
    assert code == R.CAUSE and message == "unknown cause 'weather': the language has no such word"


def test_the_player_predicates_need_a_player():
    (code, _, _, message, _), = seen('on resolve:\n  each player:\n    money += 1\n  if tableau("x"):\n    round_x = 1\n',
                                     "event")[:1]
    assert code == R.NO_PLAYER and message == "tableau() asks about a player, but an event has no player here"


def test_the_compiled_calls_of_the_predicates():
    from rulekit.content.loader import load_content
    from rulekit.interpreter.program import compile_card
    from tests.conftest import ROOT

    reach = load_content(ROOT / "tests" / "fixtures" / "reach")
    code = compile_card(reach.lookup("inquest"), "compiled").code
    assert code is not None
    for call in ("rt.has_advisor(S0, '医')", "rt.in_tableau(S0, 'respirator')", "rt.switched_off(S0, '呼吸机')",
                 "rt.tableau_cards(S0)", "rt.caused_by(f, 'mine', False)", "rt.caused_by(f, '暴发', True)"):
        assert call in code.source, call


def test_a_misspelt_tableau_count_is_named_with_its_guess_and_every_countable_word():
    (code, row, col, message, hint), *_ = seen("on play:\n  money += count(tablau where stage == 1)\n")
    assert (code, row, col) == (R.UNKNOWN_COUNT, 2, 18)
    assert message == "unknown thing to count 'tablau' — did you mean 'tableau' (已实施区)?"
    assert hint == ("write count(player where …), count(other player where …), count(played where …) or "
                    "count(tableau where …)")

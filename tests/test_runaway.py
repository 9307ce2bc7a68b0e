"""Runaway and hostile effects end their game quickly, with a message naming the card, its line, the round and
the seed — never a hang, a memory blow-up or a traceback (registry.LIMITS)."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest

from rulekit.agents import make_agent
from rulekit.content.loader import load_content
from rulekit.core.errors import EffectError
from rulekit.core.game import Game
from rulekit.core.table import Table, TableSeat, set_table
from rulekit.engine import make_game, run_game

ENGINE = Path(__file__).parent / "fixtures" / "engine"


def content_with(tmp_path: Path, effect: str, *, card_id: str = "runaway", more: str = ""):
    """The engine's test content plus one stage-1 policy with this effect (and more YAML cards)."""
    root = tmp_path / "content"
    shutil.copytree(ENGINE, root)
    body = textwrap.indent(textwrap.dedent(effect).strip("\n"), "    ")
    (root / "policies" / "extra.yaml").write_text(
        f"- id: {card_id}\n  name: 失控\n  stage: 1\n  price: 0\n  flavor: a runaway card\n  effect: |\n{body}\n{more}",
        encoding="utf-8")
    return load_content(root)


@pytest.fixture(params=["compiled", "reference"])
def evaluator(request):
    """Both evaluators stop a runaway effect the same way, with the same message."""
    return request.param


def table_game(content, seed: int = 1, tableau=("runaway",), hand=(), agent: str = "default",
               evaluator: str = "compiled") -> Game:
    game = make_game(content, seed, [make_agent(agent, seed, s) for s in range(4)], evaluator=evaluator)
    def cards(refs):
        return tuple(content.lookup(r) for r in refs)
    set_table(game, Table(seats={0: TableSeat(tableau=cards(tableau), hand=cards(hand))}))
    return game


def test_repeat_inside_repeat_stops_at_the_effect_step_limit(tmp_path, evaluator):
    content = content_with(tmp_path, """
        on income start:
          repeat 100:
            repeat 100:
              repeat 100:
                money += 1
    """)
    game = table_game(content, seed=7, evaluator=evaluator)
    with pytest.raises(EffectError) as err:
        game.run_phase("income")
    text = str(err.value)
    assert "失控 (runaway)" in text and "extra.yaml:" in text
    assert "more than 10,000 statements" in text.replace("10000", "10,000") and "seed 7" in text and "round 1" in text


def test_statements_across_the_game_stop_at_the_game_limit(tmp_path):
    content = content_with(tmp_path, """
        on income start:
          repeat 90:
            repeat 100:
              money += 0
    """)
    game = make_game(content, 3, [make_agent("random", 3, s) for s in range(4)])
    set_table(game, Table(seats={s: TableSeat(tableau=(content.lookup("runaway"),)) for s in range(4)}))
    with pytest.raises(EffectError) as err:
        for _ in range(14):
            game.run_round()
    assert "the effects of this game ran more than 200000 statements" in str(err.value)
    assert "失控 (runaway)" in str(err.value) and "seed 3" in str(err.value)


def test_numbers_that_grow_without_bound_stop_the_game_at_the_number_limit(tmp_path, evaluator):
    lets = "\n".join(f"  let a{k + 1} = a{k} * a{k}" for k in range(1, 40))
    content = content_with(tmp_path, "on play:\n  let a1 = 3\n" + lets + "\n  money += a40\n")
    game = table_game(content, tableau=(), hand=("runaway",), evaluator=evaluator)
    with pytest.raises(EffectError) as err:
        game.play_card(0, "runaway")
    assert "beyond the limit of ±1,000,000,000" in str(err.value)
    assert "extra.yaml:13:" in str(err.value), "the line of `let a6 = a5 * a5`, the first product past the limit"


def test_a_huge_score_stops_the_game_instead_of_breaking_storage(tmp_path, evaluator):
    content = content_with(tmp_path, "on play:\n  score += 999999999 * 999999999\n")
    game = table_game(content, tableau=(), hand=("runaway",), evaluator=evaluator)
    with pytest.raises(EffectError, match="beyond the limit"):
        game.play_card(0, "runaway")


def test_drawing_more_cards_than_exist_stops_when_the_decks_are_empty(tmp_path, evaluator):
    content = content_with(tmp_path, "on play:\n  draw 1000000000 from stage 1\n")
    game = table_game(content, tableau=(), hand=("runaway",), evaluator=evaluator)
    game.play_card(0, "runaway")
    stage1 = sum(c.copies for c in content.of_kind("policy") if c.stage == 1) - 1
    assert len(game.state.seats[0].hand) == stage1, "every stage-1 card left is drawn, and nothing more"


def test_a_huge_choice_is_offered_as_bounds_not_a_list(tmp_path, evaluator):
    content = content_with(tmp_path, "on play:\n  choose n from 0 to 1000000000\n  money += n\n")
    game = table_game(content, tableau=(), hand=("runaway",), evaluator=evaluator)
    asked = []

    class Spy:
        name = "spy"

        def choose(self, obs, q):
            asked.append(q.options)
            return len(q.options) - 1

    game.choosers[0] = Spy()
    game.play_card(0, "runaway")
    assert isinstance(asked[0], range) and len(asked[0]) == 1_000_000_001
    assert game.state.seats[0].money == 9999, "money stops at its ceiling"


def test_a_fortune_then_an_auction_bids_within_bounds(tmp_path):
    content = content_with(tmp_path, "on reserve start:\n  money += 1000000000\n")
    result = run_game(content, 5, ["random"])
    assert result.end_reason != "error", result.error


def test_effects_that_keep_asking_stop_at_the_question_limit(tmp_path):
    content = content_with(tmp_path, """
        on actions start:
          repeat 100:
            may:
              money += 0
    """)
    game = make_game(content, 2, [make_agent("random", 2, s) for s in range(4)])
    seats = {s: TableSeat(tableau=(content.lookup("runaway"),)) for s in range(4)}
    set_table(game, Table(seats=seats))
    with pytest.raises(EffectError, match="asked more than 5000 questions"):
        for _ in range(20):
            game.run_phase("actions")


def test_a_trigger_loop_names_every_card_of_the_loop(tmp_path, evaluator):
    more = textwrap.dedent("""
        - id: echo
          name: 回声
          stage: 1
          price: 0
          flavor: the other half of the loop
          effect: |
            when reveal:
              kill 1 healthy
    """)
    content = content_with(tmp_path, "when death:\n  reveal 1 tiles\n", more=more)
    game = table_game(content, tableau=("runaway", "echo"), evaluator=evaluator)
    with pytest.raises(EffectError) as err:
        game.run_spread_step("discovery")
    text = str(err.value)
    assert "set each other off" in text
    assert "失控 (runaway)" in text and "回声 (echo)" in text and " → " in text


def test_an_unlock_condition_that_divides_by_zero_names_rules_yaml_and_the_seed(tmp_path):
    root = tmp_path / "content"
    shutil.copytree(ENGINE, root)
    (root / "rules.yaml").write_text('players: 4\nunlock:\n  stage2: "infected // dead > 1"\n', encoding="utf-8")
    content = load_content(root)
    result = run_game(content, 4, ["random"])
    assert result.end_reason == "error"
    assert result.error.startswith(f"{root / 'rules.yaml'}:3:12: unlock.stage2: division by zero")
    assert "seed 4" in result.error


@pytest.mark.parametrize("effect, line, words", [
    ("on play:\n  let k = 5\n  if money >= 0:\n    k -= 5\n  money += 6 // k\n", 11, "division by zero: the number after `//`"),
    ("on play:\n  let k = 1\n  if money >= 0:\n    k -= 1\n  after k rounds:\n    money += 1\n", 11,
     "after 0 rounds: the number of rounds came to 0 here"),
])
def test_a_zero_only_play_shows_stops_the_game_at_its_card_and_line(tmp_path, evaluator, effect, line, words):
    content = content_with(tmp_path, effect)
    game = table_game(content, seed=5, tableau=(), hand=("runaway",), evaluator=evaluator)
    with pytest.raises(EffectError) as err:
        game.play_card(0, "runaway")
    text = str(err.value)
    assert text.startswith(f"失控 (runaway), {content.lookup('runaway').file}:{line}: {words}"), text
    assert text.endswith("(round 1, seed 5)") and "max(1, …)" in text


def _counts_inside_counts(depth: int) -> str:
    condition = "money >= 0"
    for _ in range(depth):
        condition = f"count(player where {condition}) > 0"
    return condition


def test_every_player_an_aggregate_reads_is_a_step_of_the_budget(tmp_path, evaluator):
    """count(player where count(player where …)) at 4 players: 4 outer reads and 16 inner ones."""
    content = content_with(tmp_path, f"on play:\n  if {_counts_inside_counts(2)}:\n    money += 1\n")
    game = table_game(content, tableau=(), hand=("runaway",), evaluator=evaluator)
    before = game.state.steps
    game.play_card(0, "runaway")
    assert game.state.steps - before == 1 + 4 + 16 + 1, "the handler's statement, the reads, the `if` block's"


def test_counts_inside_counts_stop_at_the_effect_step_limit(tmp_path, evaluator):
    """Twelve deep would read 4^12 times; it stops at the budget, naming the card and line. Run apart, so
    that if it ever runs away again the test fails after a minute instead of hanging the suite."""
    import subprocess
    import sys

    content = content_with(tmp_path, f"on play:\n  money += 1\n  if {_counts_inside_counts(12)}:\n    money += 1\n")
    script = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(Path(__file__).parent)!r})
        from test_runaway import table_game
        from rulekit.content.loader import load_content
        from rulekit.core.errors import EffectError
        game = table_game(load_content({str(tmp_path / 'content')!r}), seed=4, tableau=(), hand=("runaway",),
                          evaluator={evaluator!r})
        try:
            game.play_card(0, "runaway")
        except EffectError as err:
            print(err)
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.stdout.startswith(f"失控 (runaway), {content.lookup('runaway').file}:9: this effect ran more than "
                                  "10000 statements"), done.stdout + done.stderr
    assert "count(…) or highest(…) inside one another" in done.stdout and "seed 4" in done.stdout

"""Issue 18's moments: counters' first values (`counters: {NAME: "= EXPR"}`), what the checker tells a
designer who writes them wrong, and what the bots make of them (the games themselves: tests/scenarios/380-,
and tests/fixtures/reach in test_evaluators_agree)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulekit.agents import estgen
from rulekit.agents import estimate as E
from rulekit.content.loader import load_content
from rulekit.diagnostics.codes import R
from rulekit.lint.engine import check
from tests.effect_seen import seen

REACH = Path(__file__).parent / "fixtures" / "reach"


def linted(tmp_path: Path, card: str, kind: str = "policies") -> list[tuple[str, int, int, str, str | None]]:
    (tmp_path / kind).mkdir()
    (tmp_path / "rules.yaml").write_text("players: 4\n", encoding="utf-8")
    path = tmp_path / kind / "cards.yaml"
    path.write_text(card, encoding="utf-8")
    return [(d.code, d.line, d.col, d.message, d.hint) for d in check([path])
            if d.severity != "info" ]


MEMORIAL = """- id: memorial
  name: 纪念碑
  stage: 1
  price: 0
  copies: 1
  counters: {{seen: {start}}}
  effect: |
    on round end:
      money += max(0, dead - seen)
"""


@pytest.mark.parametrize("start", ['"= dead"', '"= count(other player where dead > 0) + 1"', '"dead * 2"', "3",
                                   '"= max(0, round - 1)"'])
def test_a_counter_s_first_value_reads_clean(tmp_path, start):
    assert linted(tmp_path, MEMORIAL.format(start=start)) == []


def test_a_misspelt_name_in_a_first_value_gets_its_did_you_mean_at_the_name(tmp_path):
    (code, line, col, message, _), = linted(tmp_path, MEMORIAL.format(start='"= daed"'))
    assert (code, line, col) == (R.UNKNOWN_NAME, 6, 23)
    assert message == "unknown name 'daed' — did you mean 'dead' (死者)?"


def test_a_first_value_that_reads_a_counter_is_refused(tmp_path):
    (code, line, col, message, hint), = linted(tmp_path, MEMORIAL.format(start='"= seen + dead"'))
    assert (code, line, col) == (R.COUNTER_START, 6, 23)
    assert message == ("the first value of the counter 'seen' cannot read the counter 'seen': no counter has a "
                       "value yet when the card enters play")
    assert hint == "work it out from the tracks, counts and `params:` instead"


def test_a_first_value_must_be_a_number(tmp_path):
    (code, line, col, message, _), = linted(tmp_path, MEMORIAL.format(start='"= dead > 1"'))
    assert (code, line, col) == (R.NEEDS_NUMBER, 6, 23)
    assert message == "the first value of the counter 'seen' needs a number, but this is a true/false value"


def test_a_first_value_that_does_not_parse_is_a_syntax_error_at_its_place(tmp_path):
    (code, line, _, _, _), = linted(tmp_path, MEMORIAL.format(start='"= dead +"'))
    assert (code, line) == (R.EFFECT_SYNTAX, 6)


def test_a_counter_with_a_first_value_is_named_one_the_reading_cannot_value():
    """The reading does not work the first value out: such a policy is measured by the lookahead (RK244)."""
    reach = load_content(REACH)
    for cid in ("remembrance", "archivist"):
        why = [str(u) for u in E.unreadable(reach.lookup(cid))]
        assert len(why) == 1 and "counter's first value" in why[0], (cid, why)
        assert estgen.of(reach.lookup(cid)).unreadable == E.unreadable(reach.lookup(cid))


# ---- who decides: the owner, unless `they choose:` ---------------------------------------------------------

@pytest.mark.parametrize("src", [
    "on play:\n  choose other player:\n    they choose:\n      cure 1 mild\n",
    "on play:\n  each other player:\n    they choose:\n      choose n from 0 to 2\n      medical += n\n",
    "on play:\n  player with most infected:\n    they choose:\n      kill up to 1 mild\n",
])
def test_they_choose_in_another_player_s_block_reads_clean(src):
    assert seen(src) == []


def test_they_choose_outside_a_player_block_changes_nothing():
    assert seen("on play:\n  they choose:\n    cure 1 mild\n") == [(
        R.THEY_CHOOSE, 2, 3, "`they choose:` changes nothing here: outside a player block the subject is the "
        "card's owner, who makes the choices anyway",
        "put it inside `choose other player:`, `each other player:` or `player with …:`")]


def test_they_choose_in_an_event_changes_nothing():
    (code, line, col, message, hint), = seen(
        "on resolve:\n  each player:\n    they choose:\n      cure 1 mild\n", kind="event")
    assert (code, line, col) == (R.THEY_CHOOSE, 3, 5)
    assert message == ("`they choose:` changes nothing in an event: an event has no owner, so each player already "
                       "makes the choices in their own block")
    assert hint == "remove `they choose:` and keep its block"


def test_a_misspelt_they_is_named_by_the_parser():
    (code, line, col, message, _), *_ = seen("on play:\n  choose other player:\n    thy choose:\n      cure 1 mild\n")
    assert (code, line, col, message) == (R.EFFECT_SYNTAX, 3, 5, "unknown word 'thy' — did you mean 'they'?")


# ---- a draft: `draft N from stage K` -----------------------------------------------------------------------

def test_draft_in_a_player_block_is_a_draft_for_each_player():
    (code, line, col, message, hint), = seen("on play:\n  each player:\n    draft 2 from stage 1\n")
    assert (code, line, col) == (R.DRAFT_IN_PLAYER_BLOCK, 3, 5)
    assert message == ("`draft` inside a player block lays out cards once for each player the block visits, and "
                       "each time every player takes one")
    assert hint == "write `draft` outside the block: one draft lets every player take a card in turn order"


@pytest.mark.parametrize("src", ["on play:\n  draft 3 from stage 2\n", "on resolve:\n  draft players from stage 1\n"])
def test_draft_reads_clean(src):
    assert seen(src, "event" if "resolve" in src else "policy") == []


def test_a_draft_from_no_stage_is_refused():
    (code, line, _, message, _), = seen("on play:\n  draft 3 from stage 4\n")
    assert (code, line) == (R.NO_SUCH_STAGE, 2) and "draft … from stage 4" in message, message


def test_the_draft_question_has_its_answer_form():
    from rulekit.core.questions import KINDS, Ask, answer_problem

    assert KINDS[Ask.DRAFT].scripted == ("card",)
    assert answer_problem("draft", "hospital_expansion", 2) is None
    assert answer_problem("draft", 3, 2) == "an answer to the question 'draft' must be a card id (a text), not 3"


class Watcher:
    """Plays 公开集市 whenever it can, else answers with the first option; at each draft question notes what
    every seat sees."""

    name = "watcher"

    def __init__(self, seat: int, seen: list, games: list) -> None:
        self.seat, self.seen, self.games = seat, seen, games

    def choose(self, obs, q) -> int:
        if q.kind.value == "draft":
            game = self.games[0]
            self.seen.append((q.seat, tuple(q.options),
                              [tuple(c.id for c in game.observation(s).pool) for s in range(game.players)]))
        if q.kind.value == "action" and ("play", "open_market") in q.options:
            return q.options.index(("play", "open_market"))
        return 0


def test_a_draft_s_cards_are_face_up_to_every_seat_and_each_seat_takes_one_in_turn():
    from rulekit.engine import make_game

    reach = load_content(REACH)
    seen: list = []
    games: list = []
    for seed in range(40):
        seen.clear()
        games.clear()
        game = make_game(reach, seed, [Watcher(s, seen, games) for s in range(3)], players=3)
        games.append(game)
        game.run()
        if seen:
            break
    assert seen, "no draft in 40 games"
    _, options, views = seen[0]
    assert all(view == views[0] for view in views) and set(options) <= set(views[0])
    asked = [seat for seat, _, _ in seen[:3]]
    assert len(set(asked)) == len(asked), asked         # one card each, going round the table
    assert len(seen[1][1]) < len(options) or len(seen) == 1
    assert games[0].observation(0).pool == ()            # the pool is gone once the draft is over


@pytest.mark.parametrize("agents", [["random"], ["greedy", "random", "greedy", "random"]])
def test_the_bots_answer_a_draft_and_the_log_reads_back(agents):
    from rulekit.engine import new_game
    from rulekit.play import record_problem

    reach = load_content(REACH)
    drafted = 0
    for seed in range(12):
        log: list = []
        new_game(reach, seed, agents, players=4, log=log).run()
        drafted += sum(1 for r in log if r["e"] == "drafted")
        assert not [p for r in log if (p := record_problem(r, 4))]
    assert drafted > 0


def test_a_draft_is_valued_as_one_card_of_its_stage():
    reach = load_content(REACH)
    card = reach.lookup("open_market")
    assert E.unreadable(card) == ()
    assert estgen.of(card).unreadable == ()


# ---- once when becomes COND: ---------------------------------------------------------------------------------

@pytest.mark.parametrize("src", [
    "once when becomes tiles == 0 and infected == 0:\n  score += 3\n",
    "once when becomes money >= 10:\n  economy += 2\nonce when becomes round > 5:\n  score += 1\n",
])
def test_once_when_becomes_reads_clean(src):
    assert seen(src) == []


def test_when_becomes_without_once_is_refused():
    (code, line, col, message, hint), = seen("when becomes healthy == 0:\n  score += 3\n")
    assert (code, line, col) == (R.BECOMES_NEEDS_ONCE, 1, 1)
    assert message == ("`when becomes` needs `once`: the block runs the first time the condition holds, and never "
                       "again")
    assert hint == "write `once when becomes …:`"


def test_a_becomes_condition_that_reads_nothing_never_changes():
    (code, line, col, message, _), = seen("once when becomes 1 > 0:\n  score += 3\n")
    assert (code, line, col) == (R.BECOMES_NEVER_CHANGES, 1, 19)
    assert message == ("this condition reads nothing of the game, so it never changes: the block runs as soon as "
                       "the card is in play, or never")


def test_a_becomes_condition_must_be_true_or_false_and_cannot_read_it():
    found = seen("once when becomes money:\n  score += 3\nonce when becomes it == 1:\n  score += 1\n")
    assert [(c, row, col) for c, row, col, _, _ in found] == [(R.NEEDS_CONDITION, 1, 19), (R.IT_WITHOUT_TRIGGER, 3, 19)]
    assert found[0][3] == "`once when becomes` needs a true/false condition, but this is a number"


def test_a_misspelt_name_in_a_becomes_condition_gets_its_did_you_mean():
    (code, line, col, message, _), = seen("once when becomes infectd == 0:\n  score += 3\n")
    assert (code, line, col) == (R.UNKNOWN_NAME, 1, 19)
    assert message.startswith("unknown name 'infectd' — did you mean 'infected'")


def test_an_event_cannot_have_once_when_becomes():
    (code, line, _, message, _), *_ = seen("once when becomes money > 3:\n  score += 1\n", kind="event")
    assert (code, line) == (R.HANDLER_NOT_FOR_KIND, 1)
    assert message.startswith("an event cannot have `once when becomes`")


def test_a_condition_where_a_trigger_goes_is_pointed_at_once_when_becomes():
    (_, _, _, _, hint), = seen("once when money > 5:\n  policy += 1\n")
    assert hint is not None and hint.startswith("for the first time it holds, write `once when becomes money > 5:`")


def test_once_when_becomes_fires_once_and_is_checked_after_every_step():
    """A game of the reach fixture: each card's handler ran at most once per seat, and both evaluators agree
    (test_evaluators_agree); here: its condition held when it ran."""
    from rulekit.engine import new_game

    reach = load_content(REACH)
    runs = 0
    for seed in range(6):
        log: list = []
        new_game(reach, seed, ["random"], players=3, log=log, verbose=True).run()
        fired = [(r["seat"], r["card"]) for r in log if r["e"] == "fire" and r["how"] == "once when becomes"]
        assert len([f for f in fired if f[1] == "watchman"]) == len({f for f in fired if f[1] == "watchman"})
        runs += len(fired)
    assert runs > 0


def test_once_when_becomes_is_valued_as_a_once_trigger():
    reach = load_content(REACH)
    card = reach.lookup("all_clear")
    assert E.unreadable(card) == () and estgen.of(card).unreadable == ()


class _NeverSeen(dict):
    """A cache of where conditions were false that remembers nothing: every condition worked out at every check."""

    def __setitem__(self, key, value) -> None:
        pass


def test_skipping_conditions_whose_reads_did_not_change_changes_no_game(monkeypatch):
    """check_becomes works a condition out again only when what its card reads changed: the same games as
    working every condition out at every check."""
    from rulekit.core.game import Game
    from rulekit.engine import new_game

    reach = load_content(REACH)

    def games() -> list:
        logs = []
        for seed in range(8):
            log: list = []
            agents = ["random"] if seed % 2 else ["greedy", "random", "random", "greedy"]
            new_game(reach, seed, agents, players=4, log=log, verbose=True).run()
            logs.append(log)
        return logs

    cached = games()
    init = Game.__init__

    def forgetful(self, *args, **kwargs) -> None:
        init(self, *args, **kwargs)
        self._becomes_false = _NeverSeen()          # no condition skipped

    monkeypatch.setattr(Game, "__init__", forgetful)
    assert games() == cached
    assert any(r["e"] == "fire" and r["how"] == "once when becomes" for log in cached for r in log)

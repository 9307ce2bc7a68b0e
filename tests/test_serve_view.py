"""The play page names every kind of question in both languages, and labels the yes/no of a reroll in words."""

from __future__ import annotations

from rulekit.core.questions import Ask
from rulekit.serve.view import PROMPTS, option_view


def test_every_kind_of_question_has_a_bilingual_prompt():
    missing = [kind.value for kind in Ask if kind not in PROMPTS]
    assert not missing, f"the page would show the bare kind for: {missing}"
    for kind, prompt in PROMPTS.items():
        chinese, _, english = prompt.partition(" · ")
        assert chinese and english, f"{kind.value}: {prompt!r} is not 'Chinese · English'"


def test_a_reroll_is_offered_as_keep_or_roll_again():
    keep, again = (option_view(None, Ask.REROLL, k, v)["label"] for k, v in enumerate((False, True)))  # type: ignore[arg-type]
    assert keep == "就用这个点数 · keep this roll"
    assert again == "重掷 · roll again"


def test_the_page_shows_the_seat_the_events_it_looked_at_and_no_other_seat():
    from pathlib import Path

    from rulekit.content.loader import load_content
    from rulekit.core.handlers import Frame
    from rulekit.engine import new_game
    from rulekit.serve.view import page

    reach = load_content(Path(__file__).resolve().parent / "fixtures" / "reach")
    game = new_game(reach, 4, ["default"], players=4)
    game.pending()
    top = [c.name for c in game.state.event_deck[-2:][::-1]]
    game.look_at_events(Frame(reach.lookup("oracle"), 0), 0, 2, False)
    assert page(game.observation(0))["events"]["foreseen"] == top
    assert all(page(game.observation(s))["events"]["foreseen"] == [] for s in (1, 2, 3))
    assert page(game.observation(0))["pool"] == []


class _DraftWatcher:
    """Plays 公开集市 (a draft) whenever it can, else the first option; at a draft question notes every seat's page."""

    def __init__(self, games: list, pages: list) -> None:
        self.games, self.pages = games, pages

    def choose(self, obs, q) -> int:
        if q.kind.value == "draft" and not self.pages:
            from rulekit.serve.view import page

            game = self.games[0]
            self.pages.extend((tuple(q.options), [c["id"] for c in page(game.observation(s))["pool"]])
                              for s in range(game.players))
        if q.kind.value == "action" and ("play", "open_market") in q.options:
            return q.options.index(("play", "open_market"))
        return 0


def test_a_draft_s_cards_are_on_every_seat_s_page():
    from pathlib import Path

    from rulekit.content.loader import load_content
    from rulekit.engine import make_game

    reach = load_content(Path(__file__).resolve().parent / "fixtures" / "reach")
    pages: list = []
    for seed in range(40):
        games: list = []
        game = make_game(reach, seed, [_DraftWatcher(games, pages) for _ in range(3)], players=3)
        games.append(game)
        game.run()
        if pages:
            break
    assert pages, "no draft in 40 games"
    options, first = pages[0]
    assert first and set(options) <= set(first)
    assert all(pool == first for _, pool in pages), "every seat sees the same face-up cards"

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

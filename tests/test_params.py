"""A card's `params:`: numbers its effect reads as constants — in both evaluators and the greedy estimate alike,
never assigned, never shadowed, and noticed when unread."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulekit.agents import estgen
from rulekit.agents import estimate as E
from rulekit.content.loader import check_paths, load_content
from rulekit.engine import new_game
from tests.conftest import ROOT

TUNE = ROOT / "tests" / "fixtures" / "tune"
GRANT = """- id: grant
  name: 补助
  stage: 1
  price: 1                  # one coin
  copies: 3
  params: {gain: 2}         # coins it gives: the number tune changes
  flavor: money from a parameter
  effect: |
    on play:
      money += gain
"""


def line_of(root: Path, text: str) -> int:
    """The line of tuned.yaml where `text` first stands."""
    lines = (root / "policies" / "tuned.yaml").read_text(encoding="utf-8").splitlines()
    return next(k for k, line in enumerate(lines, 1) if text in line)


def folder(tmp_path: Path, grant: str = GRANT) -> Path:
    """The tune fixture with 补助 written as given."""
    root = tmp_path / "c"
    shutil.copytree(TUNE, root)
    path = root / "policies" / "tuned.yaml"
    text = path.read_text(encoding="utf-8")
    assert GRANT in text
    path.write_text(text.replace(GRANT, grant), encoding="utf-8")
    return root


def gains(content, evaluator: str) -> list[int]:
    """The money 补助 gave each time it was played, over a few seeded games with the card dealt to seat 0."""
    card = content.lookup("grant")
    out = []
    for seed in range(6):
        log: list = []
        game = new_game(content, seed, ["greedy"], players=2, evaluator=evaluator, log=log)
        game.setup()
        game.take_from_deck(card)
        game.to_hand(0, card, "given")
        game.run()
        out += [r["delta"] for r in log if r["e"] == "track" and r.get("why") == "grant" and r["track"] == "money"]
    return out


@pytest.mark.parametrize("evaluator", ["compiled", "reference"])
@pytest.mark.parametrize("gain", [2, 7])
def test_both_evaluators_read_a_param_as_its_number(tmp_path, evaluator, gain):
    content = load_content(folder(tmp_path, GRANT.replace("{gain: 2}", f"{{gain: {gain}}}")))
    given = gains(content, evaluator)
    assert given and set(given) == {gain}


def test_a_param_is_a_constant_the_checker_computes_with(tmp_path):
    """`10 // (gain - 2)` with gain 2 is a division by 0, found before any game (RK232)."""
    root = folder(tmp_path, GRANT.replace("money += gain", "money += 10 // (gain - 2)"))
    _, diags = check_paths([root])
    found = [d for d in diags if d.code == "RK232"]
    assert len(found) == 1 and found[0].file.endswith("tuned.yaml") and found[0].line == line_of(root, "10 //")


def test_assigning_a_param_is_refused_at_its_position(tmp_path):
    root = folder(tmp_path, GRANT.replace("money += gain", "money += gain\n      gain += 1"))
    _, diags = check_paths([root])
    (d,) = [d for d in diags if d.code == "RK245"]
    assert d.severity == "error"
    assert (Path(d.file).name, d.line, d.col) == ("tuned.yaml", line_of(root, "gain += 1"), 7)
    assert "'gain' is a parameter of this card (`params:`)" in d.message and "cannot change it" in d.message


def test_a_param_shadowed_by_let_is_a_name_made_twice(tmp_path):
    root = folder(tmp_path, GRANT.replace("money += gain", "let gain = 3\n      money += gain"))
    _, diags = check_paths([root])
    (d,) = [d for d in diags if d.code == "RK228"]
    assert (d.line, d.col) == (line_of(root, "let gain"), 11) and "already a parameter of this card" in d.message


def test_a_param_named_like_a_track_is_refused(tmp_path):
    root = folder(tmp_path, GRANT.replace("{gain: 2}", "{gain: 2, money: 1}"))
    _, diags = check_paths([root])
    (d,) = [d for d in diags if d.code == "RK246"]
    assert (d.line, d.col) == (line_of(root, "params:"), 21)
    assert "'money' cannot name a parameter: it is a track" in d.message


def test_an_unread_param_is_a_warning_at_its_name(tmp_path):
    root = folder(tmp_path, GRANT.replace("{gain: 2}", "{gain: 2, spare: 1}"))
    content, diags = check_paths([root])
    (d,) = [d for d in diags if d.code == "RK247"]
    assert d.severity == "warning" and (d.line, d.col) == (line_of(root, "params:"), 21) and "'spare'" in d.message
    assert content is not None          # a warning: the content still loads


def test_the_greedy_estimate_reads_a_param_as_its_number(tmp_path):
    """The readable estimate and the generated one agree on a param card, and a coin more is worth more."""
    worth = {}
    for gain in (2, 5):
        content = load_content(folder(tmp_path / str(gain), GRANT.replace("{gain: 2}", f"{{gain: {gain}}}")))
        card = content.lookup("grant")
        game = new_game(content, 3, ["greedy"], players=2)
        q = game.pending()
        while q is None or q.kind.value != "action":
            game.answer(game.choosers[q.seat].choose(game.observation(q.seat), q))
            q = game.pending()
        obs = game.observation(q.seat)
        reference = E.play_value(card, E.Snapshot(obs, q.seat))
        generated = estgen.of(card).value(E.Snapshot(obs, q.seat), 1, False)
        assert reference == generated
        worth[gain] = reference[0]
    assert worth[5] - worth[2] == pytest.approx(3 * E.MONEY)

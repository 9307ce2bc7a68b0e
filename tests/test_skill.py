"""`rulekit playtest --skill`: the same seeds at three levels of play, paired, per advisor and per card."""

from __future__ import annotations

import json

from click.testing import CliRunner

from rulekit.cli import main
from rulekit.playtest.skill import MIN_GAMES, SkillGame, render, summarize
from tests.conftest import CONTENT


def _game(i: int, win: tuple, advisor: tuple, played: tuple) -> SkillGame:
    return SkillGame(i, 100 + i, i % 4, win, advisor, tuple(frozenset(p) for p in played), 0)


def test_skill_pairs_the_levels_and_names_what_only_a_searching_player_uses():
    games = []
    for i in range(40):
        mcts_wins = i % 4 != 0                 # mcts wins 3 games in 4, greedy 1 in 4, random never
        games.append(_game(i, (0.0, float(i % 4 == 0), float(mcts_wins)),
                           ("planner", "tycoon" if i % 2 else "planner", "councillor" if i % 2 else "tycoon"),
                           ({"a"}, {"a", "b"}, {"a", "b"} if i % 3 else {"b"})))
    s = summarize(games)
    greedy_step, mcts_step = s["steps"]
    assert (greedy_step["base"], greedy_step["new"], mcts_step["new"]) == ("random", "greedy", "mcts")
    w = mcts_step["win"]
    assert abs(w["difference"] - 0.5) < 1e-9 and w["ci95"][0] > 0.2 and w["p"] < 0.001
    assert abs(greedy_step["win"]["difference"] - 0.25) < 1e-9
    adv = mcts_step["advisors"]
    assert adv["councillor"]["base_games"] == 0 and adv["councillor"]["new_games"] == 20
    assert "difference" not in adv["councillor"]            # kept by one side only: no paired difference
    assert adv["tycoon"]["base_games"] == 20 and adv["tycoon"]["new_games"] == 20 >= MIN_GAMES
    assert adv["tycoon"]["difference"] is not None and "p_adjusted" in adv["tycoon"]
    cards = mcts_step["cards"]
    assert cards["b"]["base_games"] == 40 and cards["b"]["clear"] is True
    text = render(s)
    assert "kept only by mcts: councillor (20 games)" in text
    assert "mcts over greedy" in text and "+50 points" in text


def test_skill_on_the_command_line_plays_each_seed_three_times(tmp_path):
    out = tmp_path / "skill"
    r = CliRunner().invoke(main, ["playtest", str(CONTENT), "--skill", "--skill-agent", "mcts:1", "--games", "2",
                                  "--players", "2", "--out", str(out), "--quiet"])
    assert r.exit_code == 0, r.output
    summary = json.loads((out / "skill.json").read_text(encoding="utf-8"))
    assert summary["games"] == 2 and len(summary["steps"]) == 2
    assert "mcts over greedy" in r.output and (out / "skill.txt").read_text(encoding="utf-8").startswith("技能 skill")
    bad = CliRunner().invoke(main, ["playtest", str(CONTENT), "--skill", "--skill-agent", "greedy", "--games", "1",
                                    "--out", str(out)])
    assert bad.exit_code == 2 and "mcts" in bad.output

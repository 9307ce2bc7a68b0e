"""The playtest report as a designer reads it: each card's price, status and copies; a fact of every game said
once; one bar said as a number; combos by name; no warning from too few games; --resume naming what changed."""

from __future__ import annotations

import re
import shutil
from dataclasses import replace

from click.testing import CliRunner

from rulekit.cli import main
from rulekit.core.result import GameResult
from rulekit.playtest import report, stats
from rulekit.playtest.runner import Batch
from tests.conftest import CONTENT

PLAYERS = 4


def game(seed: int, *, winner: int = 0, advisor: str | None = None, rounds: int = 14,
         end: str = "events_exhausted", events: tuple[str, ...] = ()) -> GameResult:
    """A finished 4-player game: `winner` wins, seat 0 keeps `advisor`."""
    scores = tuple(10 if s == winner else s for s in range(PLAYERS))
    return GameResult(seed=seed, players=PLAYERS, agents=("greedy",) * PLAYERS,
                      advisors=(advisor,) + (None,) * (PLAYERS - 1), winners=(winner,), scores=scores,
                      alive=(20,) * PLAYERS, rounds=rounds, end_reason=end, out=(False,) * PLAYERS,
                      cards_drawn=((),) * PLAYERS, cards_played=((),) * PLAYERS, events=events, combos_fired=(),
                      score_history=(scores,))


def summary_of(content, games: list[GameResult]) -> dict:
    batch = Batch(str(CONTENT), len(games), 1, PLAYERS, ("greedy",) * PLAYERS)
    return stats.summarize(enumerate(games), content, batch, content.fingerprint)


def text(page: str) -> str:
    return re.sub(r"<[^>]+>", " ", re.sub(r"<img[^>]*>", "", page))


# ---- the card table ---------------------------------------------------------------------------------

def test_the_card_table_shows_price_status_and_copies(content):
    s = summary_of(content, [game(i) for i in range(4)])
    assert s["cards"]["hospital_expansion"]["price"] == [2, 3, 4] and s["cards"]["hospital_expansion"]["copies"] == 3
    page = report.render(s)
    assert "价格 price" in page and "张数 copies" in page and "状态 status" in page
    row = re.search(r"<tr><td>医院扩容 \(hospital_expansion\)</td>(.*?)</tr>", page).group(1)
    assert "<td>2/3/4</td><td>3</td><td>定稿 designed</td>" in row
    assert "<td>提议 proposed</td>" in re.search(r"<tr><td>免疫训练 \(immune_training\)</td>(.*?)</tr>", page).group(1)


# ---- what is true of every game -------------------------------------------------------------------------

def test_a_fact_of_every_game_is_said_once_under_about_this_game(content):
    every = tuple(e.id for e in content.of_kind("event"))
    s = summary_of(content, [game(i, winner=i % PLAYERS, events=every) for i in range(8)])
    assert report.about(s) == ["全部 8 局都在第 14 回合因事件牌抽完而结束 / all 8 games ended in round 14, when the events ran "
                               "out",
                               "每一局都会抽到全部 14 张事件牌 / every game draws all 14 event cards"]
    assert not any("ended by" in n or "events ran out" in n for n in report.notes(s))
    page = text(report.render(s))
    assert page.count("ended in round 14") == 1
    assert page.index("About this game") < page.index("What stands out")


def test_the_commonest_end_stands_out_only_when_not_every_game_ends_so(content):
    s = summary_of(content, [game(0), game(1, rounds=9, end="one_left")])
    assert any("ended by events_exhausted" in n for n in report.notes(s))
    assert not any("all 2 games ended" in n for n in report.about(s))


def test_a_one_bar_histogram_is_a_number_not_a_plot(content):
    s = summary_of(content, [game(i, winner=i % PLAYERS) for i in range(8)])
    page = report.render(s)
    length = page[page.index("<h2>对局长度"):page.index("<h2>分数")]
    assert "<img" not in length and "all 8: 14 (rounds)" in length
    two = summary_of(content, [game(0), game(1, rounds=9, end="one_left")])
    page = report.render(two)
    assert "<img" in page[page.index("<h2>对局长度"):page.index("<h2>分数")], "two bars are still a plot"


def test_combos_are_named(content):
    s = summary_of(content, [game(0)])
    combo = content.of_kind("combo")[0]
    page = report.render(s)
    assert f"{combo.name} ({combo.id})" in next(n for n in report.notes(s) if "combos that never fired" in n)
    assert f"never fired: {combo.name} ({combo.id})" in text(page)


# ---- no warning from too few games ----------------------------------------------------------------------

def test_no_warning_comes_from_too_few_games_and_the_games_needed_are_said(content):
    """Seat P1 and advisor tycoon win all 10 games: far above average, yet ten games are too few to say so."""
    s = summary_of(content, [game(i, advisor="tycoon") for i in range(10)])
    notes = report.notes(s)
    assert not any("may be too strong" in n or "turn order may matter" in n or "balance" in n.split(" / ")[0]
                   for n in notes)
    [few] = [n for n in notes if "too few to judge" in n]
    assert "balance (about 83 games needed)" in few and "tycoon ≈ 30" in few
    assert s["advisors"]["tycoon"]["needs_games"] == 30 and not s["advisors"]["tycoon"]["judged"]


def test_with_enough_games_the_same_warnings_are_given(content):
    s = summary_of(content, [game(i, advisor="tycoon") for i in range(stats.balance_games(PLAYERS))])
    notes = report.notes(s)
    assert any("advisor tycoon wins" in n and "may be too strong" in n for n in notes)
    assert any("seat P1 wins" in n for n in notes) and any("balance 0.00" in n for n in notes)
    assert not any("too few to judge" in n for n in notes)


def test_a_rare_card_says_how_many_games_would_judge_it(content):
    played = [game(i) for i in range(20)]
    played[0] = replace(played[0], cards_drawn=(("emergency_plan",), (), (), ()),
                        cards_played=(("emergency_plan",), (), (), ()))
    s = summary_of(content, played)
    card = s["cards"]["emergency_plan"]
    assert not card["judged"] and card["needs_games"] == 600
    assert "样本太少 too few plays (≈ 600 games)" in report.render(s)


# ---- --resume names what changed --------------------------------------------------------------------------

def test_resume_on_changed_content_names_the_changed_files_and_cards(tmp_path):
    root = tmp_path / "content"
    shutil.copytree(CONTENT, root, ignore=shutil.ignore_patterns(".*"))
    out = tmp_path / "out"
    def run(*a):
        return CliRunner().invoke(main, ["playtest", str(root), "--players", "2", "--out", str(out), "--quiet", *a])
    assert run("--games", "2").exit_code == 0
    stage1 = root / "policies" / "stage1.yaml"
    stage1.write_text(stage1.read_text(encoding="utf-8").replace("price: [2, 3, 4]", "price: [2, 3, 5]")
                      + "\n- {id: landmine, name: 地雷, stage: 1, price: 1, copies: 1, effect: \"on play:\\n  score += "
                        "1\\n\"}\n", encoding="utf-8")
    r = run("--games", "4", "--resume")
    assert r.exit_code == 1
    assert "files changed / 文件有改动: policies/stage1.yaml" in r.output
    assert "cards / 卡牌: 医院扩容 (hospital_expansion) changed 有改动, 地雷 (landmine) added 新增" in r.output

"""The playtest report as a designer reads it: Chinese fonts found, card names drawn as written, card gaps
judged with their sample sizes and the false discovery rate, and a progress display that says what it does."""

from __future__ import annotations

import io
import json
from types import SimpleNamespace

import pytest
from click.testing import CliRunner
from rich.console import Console

from rulekit.cli import main
from rulekit.playtest import report
from rulekit.playtest.progress import BatchProgress
from rulekit.playtest.stats import MIN_PLAYS, benjamini_hochberg, judge_cards, rate, two_proportion_p
from tests.conftest import CONTENT
from tests.test_playtest_workers import result_of

MATH = "医院$\\notacommand{$扩容"


@pytest.fixture(scope="module")
def summary(tmp_path_factory):
    out = tmp_path_factory.mktemp("rp")
    r = CliRunner().invoke(main, ["playtest", str(CONTENT), "--games", "6", "--out", str(out), "--quiet"],
                           catch_exceptions=False)
    assert r.exit_code == 0, r.output
    return json.loads((out / "summary.json").read_text(encoding="utf-8"))


# ---- fonts --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("known, chinese, best", [
    (["DejaVu Sans", "Noto Serif CJK JP", "Noto Sans CJK JP", "Noto Sans CJK SC", "WenQuanYi Zen Hei"], [],
     "Noto Sans CJK SC"),
    (["Noto Serif CJK JP", "Noto Sans CJK JP", "Noto Serif CJK SC"], [], "Noto Sans CJK JP"),
    (["Noto Serif CJK SC", "Noto Serif CJK JP", "WenQuanYi Micro Hei"], [], "WenQuanYi Micro Hei"),
    (["AR PL UMing CN", "Noto Serif CJK JP"], [], "AR PL UMing CN"),
    (["DejaVu Sans", "Droid Sans Fallback"], ["Droid Sans Fallback"], "Droid Sans Fallback"),
    (["DejaVu Sans", "Liberation Serif"], [], None),
])
def test_a_simplified_chinese_sans_font_is_preferred(known, chinese, best):
    assert report.pick_cjk_font(known, chinese) == best


def test_a_font_installed_after_matplotlibs_cache_is_found_once(monkeypatch):
    """matplotlib's cache predates the font: the system is read again once, and the cache saved."""
    from matplotlib import font_manager

    fake = SimpleNamespace(ttflist=[SimpleNamespace(name="DejaVu Sans", fname="/fonts/DejaVuSans.ttf")],
                           __version__="test")
    fake.addfont = lambda path: fake.ttflist.append(SimpleNamespace(name="WenQuanYi Micro Hei", fname=path))
    saved, scans = [], []
    monkeypatch.setattr(font_manager, "fontManager", fake)
    monkeypatch.setattr(font_manager, "findSystemFonts",
                        lambda: scans.append(1) or ["/fonts/DejaVuSans.ttf", "/fonts/wqy-microhei.ttc"])
    monkeypatch.setattr(font_manager, "json_dump", lambda data, path: saved.append(data))
    monkeypatch.setattr(report, "_fontconfig_chinese", lambda: [])
    monkeypatch.setattr(report, "_rescanned", False)
    assert report.cjk_font() == "WenQuanYi Micro Hei"
    assert [f.fname for f in fake.ttflist] == ["/fonts/DejaVuSans.ttf", "/fonts/wqy-microhei.ttc"]
    assert saved == [fake]
    fake.ttflist.pop()
    assert report.cjk_font() is None and len(scans) == 1, "the system is read again once a process, not per report"


# ---- card names are plain text -----------------------------------------------------------------------------

def test_a_card_name_with_dollar_signs_is_drawn_as_written(summary, monkeypatch):
    monkeypatch.setattr(report, "cjk_font", lambda: "DejaVu Sans")     # names go into the plots with a font
    s = json.loads(json.dumps(summary))
    first = next(iter(s["cards"]))
    s["cards"][first]["name"] = MATH
    for a in s["advisors"].values():
        a["name"] = MATH
        a["chosen"] = a["chosen"] or 1
        a["wins"] = rate(1, 2)
    with pytest.warns(UserWarning, match="Glyph"):      # DejaVu has no Chinese; the plot still renders
        page = report.render(s)
    assert "医院$\\notacommand{$扩容" in page


# ---- judging card gaps -----------------------------------------------------------------------------------

def test_two_proportion_test_and_benjamini_hochberg_known_values():
    # 56/70 vs 48/80: z = 2.650, two-sided p = 0.00805.
    assert two_proportion_p(56, 70, 48, 80) == pytest.approx(0.00805, abs=1e-4)
    assert two_proportion_p(0, 0, 1, 2) is None
    # R: p.adjust(c(0.01, 0.04, 0.03, 0.005), "BH") = 0.02 0.04 0.04 0.02
    q = benjamini_hochberg({"a": 0.01, "b": 0.04, "c": 0.03, "d": 0.005})
    assert q == pytest.approx({"a": 0.02, "b": 0.04, "c": 0.04, "d": 0.02})


def _card(won: int, played: int, rest_won: int, rest: int) -> dict:
    d = won / played - rest_won / rest if played and rest else None
    return {"win_if_played": rate(won, played), "win_if_not_played": rate(rest_won, rest), "difference": d}


def test_only_gaps_that_hold_up_across_many_cards_stand_out():
    cards = {f"plain_{i:02d}": _card(500, 2000, 1500, 6000) for i in range(33)}
    cards["rare"] = _card(9, 20, 1995, 7980)           # +20 points on 20 plays: its interval excludes 0
    cards["lucky"] = _card(560, 2000, 1440, 6000)      # +4 points, p about 0.001 alone
    cards["modest"] = _card(112, 340, 1650, 6000)      # +5.4 points, p about 0.025 alone: chance among 35
    cards["strong"] = _card(700, 2000, 1300, 6000)     # +13 points, p far below 0.001
    judge_cards(cards)
    assert not cards["rare"]["judged"] and cards["rare"]["difference_q"] is None
    assert cards["modest"]["difference_p"] < 0.05 < cards["modest"]["difference_q"]
    assert [c for c, v in cards.items() if v["stands_out"]] == ["strong"]
    assert cards["lucky"]["difference_q"] <= 0.05, "a certain gap under 5 points is real but not news"


def test_the_report_shows_sample_sizes_and_greys_out_rare_cards(summary):
    page = report.render(summary)
    rare = [c for c in summary["cards"].values() if not c["judged"]]
    assert rare and all(c["win_if_played"]["of"] < MIN_PLAYS or c["win_if_not_played"]["of"] < MIN_PLAYS
                        for c in rare)
    assert "样本太少 too few plays" in page and "打出人局 n played" in page
    assert "Benjamini–Hochberg" in page
    assert not any(c["stands_out"] for c in rare)


# ---- the progress display ------------------------------------------------------------------------------

def test_progress_counts_each_game_and_errors_and_shows_the_final_stages():
    out = io.StringIO()
    now = [100.0]
    view = BatchProgress(Console(file=out, force_terminal=True, width=140, color_system=None), enabled=True,
                         auto_refresh=False, clock=lambda: now[0])
    view.start(2, 10)
    view.game(result_of(1))
    now[0] += 0.01
    view.game(result_of(2, error="boom"))
    view.progress.refresh()
    first = out.getvalue()
    assert "4/10" in first and "1 出错 errors" in first
    assert "games/s" not in first, "no rate from two games in a hundredth of a second"
    now[0] += 2
    view.game(result_of(3))
    view.progress.refresh()
    assert "1.5 局/秒 games/s" in out.getvalue()
    view.stage("报告 writing report.html")
    view.stop()
    assert "报告 writing report.html" in out.getvalue()


def test_a_one_weight_chinese_font_prints_no_findfont_lines_to_the_designer():
    """WenQuanYi Zen Hei comes in one weight: matplotlib would log "Failed to find font weight normal" for every
    text drawn, dozens of alarming lines in a playtest's console, though it draws the text all the same."""
    import logging

    report.cjk_font()
    assert logging.getLogger("matplotlib.font_manager").getEffectiveLevel() >= logging.ERROR

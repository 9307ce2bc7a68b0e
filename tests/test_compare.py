"""`rulekit compare` as a designer uses it: nothing flagged by chance, the edited card flagged its way, stored
batches reused, the same bytes however it runs, and the content at a git revision."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest
from click.testing import CliRunner

from rulekit.cli import main
from rulekit.content.loader import load_content
from rulekit.playtest import compare as C
from rulekit.playtest.runner import Batch
from tests.conftest import CONTENT, ROOT

FIXTURE = ROOT / "tests" / "fixtures" / "compare"
PLAYERS = 2
STRONGER = ("  price: 3\n  copies: 5\n  flavor: 为了纪念\n  effect: |\n    on play:\n      score += 1\n",
            "  price: 1\n  copies: 5\n  flavor: 为了纪念\n  effect: |\n    on play:\n      score += 3\n")
DEARER = ("- id: statue\n  name: 雕像\n  stage: 1\n  price: 4\n", "- id: statue\n  name: 雕像\n  stage: 1\n  price: 7\n")


def copy_with(tmp_path, file: str, old: str, new: str, name: str = "edited"):
    root = tmp_path / name
    shutil.copytree(FIXTURE, root)
    path = root / file
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return root


def side(folder, games: int, seed: int = 1, players: int = PLAYERS) -> C.Side:
    return C.Side(str(folder), load_content(folder), Batch(str(folder), games, seed, players, ("greedy",) * players))


def compared(base: C.Side, new: C.Side, results) -> dict:
    C.play((base, new), results)
    return C.compare(base, new, results)


def flagged(record: dict) -> list[tuple[str, str, str]]:
    return [(f["kind"], f["id"], f["metric"]) for f in record["flagged"]]


def cli(*args):
    return CliRunner().invoke(main, ["compare", *map(str, args), "--quiet"], catch_exceptions=False)


# ---- nothing flagged by chance ------------------------------------------------------------------------

@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_folder_compared_with_itself_flags_nothing_and_plays_once(tmp_path, seed):
    s = side(FIXTURE, 20, seed)
    record = compared(s, s, tmp_path / "results")
    assert record["flagged"] == [] and record["games_differing"] == 0 and record["content_changes"] == []
    assert [p.name for p in (tmp_path / "results").iterdir()] == [s.key], "one batch serves both sides"


@pytest.fixture(scope="module")
def deck_results(tmp_path_factory):
    """One results folder for the noise tests: the base side is played once."""
    return tmp_path_factory.mktemp("noise")


@pytest.mark.parametrize("seed", [2, 3, 4])
def test_unpaired_noise_flags_nothing(deck_results, seed):
    """The same deck on other seeds: every game differs, yet no difference is anything but chance."""
    record = compared(side(CONTENT, 40, 1), side(CONTENT, 40, seed), deck_results)
    assert record["games_differing"] == 40
    assert record["tests"]["judged"] > 150, "the test has numbers to be wrong about"
    assert sum(c["p"] < 0.05 for c in record["compared"] if c["judged"]) > 0, "chance shows, one number at a time"
    assert record["flagged"] == []


def test_a_flavor_and_notes_edit_gives_the_same_games(tmp_path):
    edited = copy_with(tmp_path, "policies/stage1.yaml", "  flavor: 为了纪念\n", "  flavor: 为了永远纪念\n  notes: 见设计稿\n")
    record = compared(side(FIXTURE, 30), side(edited, 30), tmp_path / "results")
    assert [c["what"] for c in record["content_changes"]] == ["flavor", "notes"]
    assert record["games_differing"] == 0 and record["flagged"] == []
    assert record["files"]["changed"] == ["policies/stage1.yaml"]


# ---- an edited card ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("edit, card, sign", [(STRONGER, "monument", +1), (DEARER, "statue", -1)],
                         ids=["cheaper-and-bigger", "dearer"])
def test_the_edited_card_is_flagged_its_way_and_nothing_it_cannot_touch(tmp_path, edit, card, sign):
    record = compared(side(FIXTURE, 40), side(copy_with(tmp_path, "policies/stage1.yaml", *edit), 40),
                      tmp_path / "results")
    mine = {f["metric"]: f for f in record["flagged"] if f["kind"] == "card" and f["id"] == card}
    assert "played_when_drawn" in mine, record["flagged"]
    f = mine["played_when_drawn"]
    assert sign * f["difference"] > 0 and sign * f["ci95"][0] > 0 and sign * f["ci95"][1] > 0
    assert record["flagged"][0]["id"] == card, "the edited card is read first"
    assert f["en"].startswith(f"{f['name']} is played") and ("more often" if sign > 0 else "less often") in f["en"]
    # The fixture's cards change only money, policy and score: the draws, the advisors kept and the events
    # are the same game for game, and nothing about them may be flagged.
    fixed = [c for c in record["compared"]
             if (c["kind"] in ("advisor", "event") and c["metric"] in ("chosen", "drawn")) or c["metric"] == "drawn_by"]
    assert fixed and all(c["difference"] in (0, None) for c in fixed)
    assert not any(k in ("advisor", "event") or m == "drawn_by" for k, _, m in flagged(record))


def test_flagged_entries_hold_what_a_script_needs(tmp_path):
    record = compared(side(FIXTURE, 30), side(copy_with(tmp_path, "policies/stage1.yaml", *STRONGER), 30),
                      tmp_path / "results")
    for f in record["flagged"]:
        assert {"kind", "id", "metric", "base", "new", "difference", "ci95", "q", "zh", "en"} <= set(f)
        assert f["kind"] in ("card", "advisor", "seat", "agent", "combo", "event", "metric")
        assert f["q"] <= record["tests"]["false_discovery_rate"]
    numbers = {(c["kind"], c["id"], c["metric"]) for c in record["compared"]}
    assert ("seat", "P1", "win") in numbers and ("metric", "rounds", "rounds") in numbers
    assert ("metric", "balance", "balance") in numbers and ("card", "grant", "win_if_played") in numbers


def test_a_card_too_rare_to_judge_says_how_many_games_would_judge_it(tmp_path):
    record = compared(side(FIXTURE, 30), side(FIXTURE, 30), tmp_path / "results")
    parade = next(c for c in record["compared"] if (c["id"], c["metric"]) == ("parade", "win_if_played"))
    assert not parade["judged"] and parade["q"] is None
    assert parade["needs_games"] == -(-30 * 30 // int(parade["base_of"]))


# ---- stored batches -----------------------------------------------------------------------------------

def test_a_second_compare_plays_only_the_new_side_and_more_games_only_the_new_games(tmp_path):
    results = tmp_path / "results"
    first = copy_with(tmp_path, "policies/stage1.yaml", *STRONGER, name="first")
    second = copy_with(tmp_path, "policies/stage1.yaml", *DEARER, name="second")
    played = C.play((side(FIXTURE, 10), side(first, 10)), results)
    assert {role: o.played for role, o in played.items()} == {"base": 10, "new": 10}
    played = C.play((side(FIXTURE, 10), side(second, 10)), results)
    assert {role: o.played for role, o in played.items()} == {"base": 0, "new": 10}
    played = C.play((side(FIXTURE, 14), side(second, 14)), results)
    assert {role: o.played for role, o in played.items()} == {"base": 4, "new": 4}
    assert C.compare(side(FIXTURE, 12), side(second, 12), results)["games"] == 12, "fewer games than stored"


def test_the_same_bytes_whatever_jobs(tmp_path):
    edited = copy_with(tmp_path, "policies/stage1.yaml", *STRONGER)
    runs = []
    for jobs in (1, 2):
        out = tmp_path / f"out{jobs}"
        r = cli(FIXTURE, edited, "--games", 16, "--jobs", jobs, "--out", out, "--results", tmp_path / f"res{jobs}")
        assert r.exit_code == 0, r.output
        runs.append((out / "compare.json").read_bytes())
    assert runs[0] == runs[1]
    page = (tmp_path / "out1" / "compare.html").read_text(encoding="utf-8")
    record = json.loads(runs[0])
    assert record["flagged"] and record["flagged"][0]["en"] in page.replace("&#x27;", "'")
    assert "data:image/png;base64," in page and "http://" not in page and "https://" not in page


@pytest.mark.dask
def test_the_same_bytes_on_dask(tmp_path):
    pytest.importorskip("dask.distributed")
    edited = copy_with(tmp_path, "policies/stage1.yaml", *STRONGER)
    outs = []
    for backend in ("local", "dask"):
        out = tmp_path / backend
        r = cli(FIXTURE, edited, "--games", 8, "--jobs", 2, "--backend", backend, "--out", out,
                "--results", tmp_path / f"res-{backend}")
        assert r.exit_code == 0, r.output
        outs.append((out / "compare.json").read_bytes())
    assert outs[0] == outs[1]


def test_the_console_opens_with_the_content_change(tmp_path):
    edited = copy_with(tmp_path, "policies/stage1.yaml", *STRONGER)
    r = cli(FIXTURE, edited, "--games", 20, "--out", tmp_path / "out", "--results", tmp_path / "res")
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert "纪念碑 (monument): price 3 → 1" in lines[2] and "effect text changed (line 2)" in lines[3]
    assert "纪念碑 is played" in r.output and "compare.html" in lines[-1]


@pytest.mark.parametrize("args, words", [
    ([str(FIXTURE)], "give two content folders"),
    ([str(FIXTURE), str(FIXTURE), "--base", "HEAD"], "give one folder"),
])
def test_a_wrong_command_is_a_usage_error(args, words):
    r = CliRunner().invoke(main, ["compare", *args])
    assert r.exit_code == 2 and words in r.output


# ---- --base REV ---------------------------------------------------------------------------------------

def git(repo, *args):
    subprocess.run(["git", "-C", str(repo), "-c", "user.name=d", "-c", "user.email=d@example.org", *args],
                   check=True, capture_output=True)


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_base_compares_with_the_content_at_a_revision(tmp_path, monkeypatch):
    repo = tmp_path / "game"
    shutil.copytree(FIXTURE, repo / "content")
    git(repo, "init", "-q")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "first")
    path = repo / "content" / "policies" / "stage1.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace(*DEARER), encoding="utf-8")
    monkeypatch.chdir(repo)
    r = cli("--base", "HEAD", "--games", 12)
    assert r.exit_code == 0, r.output
    record = json.loads((repo / "compare-out" / "compare.json").read_text(encoding="utf-8"))
    assert record["base"]["content"].startswith("HEAD:content (")
    assert [c["en"] for c in record["content_changes"]] == ["雕像 (statue): price 4 → 7"]
    assert (repo / "rulekit-results").is_dir()
    again = cli("--base", "HEAD", "--games", 12)
    assert again.exit_code == 0 and again.output == r.output


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
@pytest.mark.parametrize("rev, words", [("HEAD", "not inside a git repository"), ("--help", "is not a git revision")])
def test_base_says_what_is_wrong(tmp_path, rev, words):
    folder = tmp_path / "content"
    shutil.copytree(FIXTURE, folder)
    r = cli("--base", rev, folder)
    assert r.exit_code == 1 and words in r.output


def test_a_new_card_that_fails_is_named_and_its_errors_flagged(tmp_path):
    broken = copy_with(tmp_path, "policies/stage1.yaml", "- id: grant\n",
                       "- id: cursed_ledger\n  name: 诅咒账本\n  stage: 1\n  price: 1\n  copies: 5\n  effect: |\n"
                       "    on play:\n      score += 3\n      money += 1 // (hand - hand)\n\n- id: grant\n")
    r = cli(FIXTURE, broken, "--games", 30, "--out", tmp_path / "out", "--results", tmp_path / "res")
    assert r.exit_code == 0
    assert "局出错 games stopped on an error (cursed_ledger)" in r.output and "division by zero" in r.output
    record = json.loads((tmp_path / "out" / "compare.json").read_text(encoding="utf-8"))
    assert ("metric", "end:error", "end") in flagged(record)
    assert record["new"]["errors"] > 10 and record["base"]["errors"] == 0
    drawn = next(c for c in record["compared"] if (c["id"], c["metric"]) == ("cursed_ledger", "drawn_by"))
    assert drawn["base"] is None and drawn["difference"] is None, "a new card has no value on the base side"


def test_the_edited_card_is_always_told_how_it_stands(tmp_path):
    """Every judged number of the card the change touched is said, with how it stands."""
    dearer = copy_with(tmp_path, "policies/stage1.yaml", "- id: speech\n  name: 演讲\n  stage: 1\n  price: 2\n",
                       "- id: speech\n  name: 演讲\n  stage: 1\n  price: 3\n")
    record = compared(side(FIXTURE, 30), side(dearer, 30), tmp_path / "results")
    mine = {e["metric"]: e for e in record["edited"]}
    assert {e["id"] for e in record["edited"]} == {"speech"}
    assert mine["played_when_drawn"]["standing"] == "holds" and mine["played_when_drawn"]["difference"] < 0
    assert mine["drawn_by"]["standing"] == "same" and mine["drawn_by"]["en"] == "演讲: drawn by unchanged (97%)"
    assert "win_if_played" not in mine, "played too rarely now to judge: not said as if it were known"


# ---- the causal value, compared ----------------------------------------------------------------------

BIGGER = ("  price: 3\n  copies: 5\n  flavor: 为了纪念\n  effect: |\n    on play:\n      score += 1\n",
          "  price: 3\n  copies: 5\n  flavor: 为了纪念\n  effect: |\n    on play:\n      score += 4\n")


def valued(folder, games: int) -> C.Side:
    from rulekit.playtest.value import ValuePlan

    return C.Side(str(folder), load_content(folder), Batch(str(folder), games, 1, PLAYERS, ("greedy",) * PLAYERS,
                                                           value=ValuePlan(cards=("monument",))))


def test_compare_value_measures_what_the_edit_did_to_the_card_itself(tmp_path):
    """Three more points on play: the card's causal value rises by about three points, paired game by game."""
    record = compared(valued(FIXTURE, 40), valued(copy_with(tmp_path, "policies/stage1.yaml", *BIGGER), 40),
                      tmp_path / "results")
    value = {c["metric"]: c for c in record["compared"] if c["id"] == "monument" and c["metric"].startswith("value")}
    score = value["value_score"]
    assert score["judged"] and 2.0 < score["difference"] < 4.0 and score["ci95"][0] > 0, score
    assert ("card", "monument", "value_score") in flagged(record)
    assert not any(c["metric"].startswith("value") for c in record["compared"] if c["id"] != "monument"), \
        "only the cards measured have a value"


def test_compare_value_names_the_cards_the_change_touched(tmp_path):
    r = CliRunner().invoke(main, ["compare", str(FIXTURE), str(copy_with(tmp_path, "policies/stage1.yaml", *BIGGER)),
                                  "--games", "4", "--players", "2", "--value", "--quiet",
                                  "--out", str(tmp_path / "o"), "--results", str(tmp_path / "r")],
                           catch_exceptions=False)
    assert r.exit_code == 0, r.output
    record = json.loads((tmp_path / "o" / "compare.json").read_text(encoding="utf-8"))
    assert {c["id"] for c in record["compared"] if c["metric"] == "value_score"} == {"monument"}
    assert cli(FIXTURE, FIXTURE, "--value-card", "monument").exit_code == 2, "--value-card needs --value"

"""rulekit tune: a card made absurdly cheap gets a higher price, --write changes that number alone, same bytes whatever --jobs."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from rulekit.cli import main
from rulekit.content.edit import EditError, Field, locate, rewritten
from rulekit.content.loader import load_content
from tests.conftest import ROOT

TUNE = ROOT / "tests" / "fixtures" / "tune"
# 长青 (steady) scores 2 a round while in play and costs nothing: far stronger than its stage's other cards.
STEADY = ["tune", "长青", "--budget", 150, "--reference-games", 20]


def cli(*args):
    return CliRunner().invoke(main, [*map(str, args), "--quiet"], catch_exceptions=False)


def copied(tmp_path: Path) -> Path:
    root = tmp_path / "content"
    shutil.copytree(TUNE, root)
    return root


def tuned(out: Path) -> dict:
    return json.loads((out / "tune.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def steady(tmp_path_factory):
    """One search on 长青's price with the default target (its stage's median causal value)."""
    out = tmp_path_factory.mktemp("steady")
    r = cli(*STEADY, "--content", TUNE, "--out", out)
    assert r.exit_code == 0, r.output
    return r.output, out


def test_a_strong_card_made_free_gets_a_higher_price(steady):
    output, out = steady
    t = tuned(out)
    assert t["current"] == 0 and t["target"]["source"] == "stage"
    now = next(c for c in t["candidates"] if c["value"] == 0)
    assert now["verdict"] == "above" and now["ci95"][0] > t["target"]["hi"]
    assert t["advice"]["value"] >= 3 and t["advice"]["kind"] == "inside" and t["advice"]["settled"]
    chosen = next(c for c in t["candidates"] if c["value"] == t["advice"]["value"])
    assert t["target"]["lo"] <= chosen["ci95"][0] and chosen["ci95"][1] <= t["target"]["hi"]
    assert t["games_played"] <= t["budget"]
    assert f"推荐 advice: 改为 {t['advice']['value']}" in output and "lies wholly inside the band" in output


def test_every_value_plays_the_same_seeds_and_the_stage_is_measured_on_them(steady):
    _, out = steady
    t = tuned(out)
    stage = json.loads((out / "stage-values.json").read_text(encoding="utf-8"))
    assert stage["games"] == t["reference_games"] == 20
    assert set(stage["cards"]) == {c for c in t["target"]["stage_cards"]} | {"steady"}
    # The current price's games are the reference's own (the same seeds): its value is the stage file's.
    now = next(c for c in t["candidates"] if c["value"] == 0)
    sums = [g for g in stage["cards"]["steady"] if g is not None]
    assert now["games"] == 20 and now["estimate"] == pytest.approx(sum(g[0] for g in sums) / sum(g[2] for g in sums))
    values = sorted(v["value"] for v in t["target"]["stage_cards"].values())
    assert t["target"]["value"] == pytest.approx((values[2] + values[3]) / 2)     # six others: the middle two


def test_same_inputs_give_the_same_bytes_whatever_jobs_and_a_kept_reference(steady, tmp_path):
    _, out = steady
    again = cli(*STEADY, "--content", TUNE, "--out", tmp_path, "--jobs", 2)
    assert again.exit_code == 0, again.output
    assert (tmp_path / "tune.json").read_bytes() == (out / "tune.json").read_bytes()
    assert (tmp_path / "stage-values.json").read_bytes() == (out / "stage-values.json").read_bytes()
    kept = cli(*STEADY, "--content", TUNE, "--out", tmp_path)          # the stage reference read back
    assert kept.exit_code == 0 and (tmp_path / "tune.json").read_bytes() == (out / "tune.json").read_bytes()


@pytest.mark.parametrize("stored", ['{"key": "not this one"', '{"key": 5, "games": 20}', "[1, 2]"])
def test_a_damaged_stage_reference_is_measured_again(steady, tmp_path, stored):
    """A stage-values.json edited outside rulekit is never read as the stage's values."""
    _, out = steady
    (tmp_path / "stage-values.json").write_text(stored, encoding="utf-8")
    r = cli(*STEADY, "--content", TUNE, "--out", tmp_path)
    assert r.exit_code == 0, r.output
    assert (tmp_path / "tune.json").read_bytes() == (out / "tune.json").read_bytes()
    assert (tmp_path / "stage-values.json").read_bytes() == (out / "stage-values.json").read_bytes()


def test_a_stage_reference_that_cannot_be_kept_is_a_message_not_a_traceback(tmp_path):
    (tmp_path / "stage-values.json").mkdir()
    r = cli(*STEADY, "--content", TUNE, "--out", tmp_path)
    assert r.exit_code == 1 and "cannot keep the stage reference" in r.output
    assert "Traceback" not in r.output


@pytest.mark.dask
def test_dask_gives_the_same_bytes(steady, tmp_path):
    _, out = steady
    r = cli(*STEADY, "--content", TUNE, "--out", tmp_path, "--backend", "dask", "--jobs", 2)
    assert r.exit_code == 0, r.output
    assert (tmp_path / "tune.json").read_bytes() == (out / "tune.json").read_bytes()


def test_write_changes_that_number_alone_and_the_content_still_loads(tmp_path):
    root = copied(tmp_path)
    path = root / "policies" / "tuned.yaml"
    before = path.read_text(encoding="utf-8").splitlines(keepends=True)
    r = cli("tune", "长青", "--target", 3, "--budget", 150, "--content", root, "--out", tmp_path / "out", "--write")
    assert r.exit_code == 0, r.output
    value = tuned(tmp_path / "out")["advice"]["value"]
    assert value > 0
    after = path.read_text(encoding="utf-8").splitlines(keepends=True)
    changed = [(a, b) for a, b in zip(before, after, strict=False) if a != b]
    assert len(before) == len(after) and changed == [("  price: 0\n", f"  price: {value}\n")]
    assert load_content(root).lookup("steady").price == (value,)
    assert f"wrote price = {value} (was 0)" in r.output


def test_write_keeps_comments_and_the_other_prices(tmp_path):
    """A parameter and the 2nd price of a repeatable card, written beside comments: only the digits change."""
    root = copied(tmp_path)
    grant = load_content(root).lookup("grant")
    spot, raw = locate(grant, Field.parse("params.gain"))
    new = rewritten(raw, spot, 17).decode()
    assert "  params: {gain: 17}         # coins it gives: the number tune changes\n" in new
    assert len(new) == len(raw.decode()) + 1
    ladder = load_content(root).lookup("ladder")
    spot, raw = locate(ladder, Field.parse("price[2]"))
    assert "  price: [1, 9, 3]          # repeatable" in rewritten(raw, spot, 9).decode()


def test_a_settled_search_may_write_and_an_unsettled_one_does_not(tmp_path):
    root = copied(tmp_path)
    before = (root / "policies" / "tuned.yaml").read_bytes()
    r = cli("tune", "补助", "--field", "params.gain", "--target", 9, "--budget", 20, "--range", "0..3",
            "--content", root, "--out", tmp_path / "out", "--write")
    assert r.exit_code == 0, r.output
    assert tuned(tmp_path / "out")["advice"]["settled"] is False
    assert "未写入 not written" in r.output
    assert (root / "policies" / "tuned.yaml").read_bytes() == before


@pytest.mark.parametrize("written,what", [
    ("  price: &cheap 0\n", "anchor, alias or tag"),
    ("  price: 0x0\n", "written as `0x0`"),
])
def test_a_number_that_cannot_be_changed_safely_is_refused_at_its_place(tmp_path, written, what):
    root = copied(tmp_path)
    path = root / "policies" / "tuned.yaml"
    text = path.read_text(encoding="utf-8")
    line = text.splitlines().index("  price: 0") + 1
    path.write_text(text.replace("  price: 0\n", written, 1), encoding="utf-8")
    r = cli("tune", "长青", "--target", 1, "--budget", 20, "--content", root, "--out", tmp_path / "out", "--write")
    assert r.exit_code == 2
    assert f"tuned.yaml:{line}:10" in r.output and what in r.output
    assert path.read_text(encoding="utf-8") != text and not (tmp_path / "out").exists()


def test_a_value_aliased_from_another_card_is_refused(tmp_path):
    root = copied(tmp_path)
    path = root / "policies" / "tuned.yaml"
    text = path.read_text(encoding="utf-8")
    text = text.replace("  params: {gain: 2}", "  params: &shared {gain: 2}").replace(
        "  flavor: a point each execution\n", "  flavor: a point each execution\n  params: *shared\n")
    path.write_text(text.replace("      score += 1\n", "      score += gain - 1\n"), encoding="utf-8")
    grant = load_content(root).lookup("grant")
    with pytest.raises(EditError, match="anchor, alias or tag"):
        locate(grant, Field.parse("params.gain"))


def test_an_advisor_is_tuned_towards_a_fair_win_rate(tmp_path):
    r = cli("tune", "银", "--budget", 60, "--content", TUNE, "--out", tmp_path)
    assert r.exit_code == 0, r.output
    t = tuned(tmp_path)
    assert t["field"] == "params.coins" and t["measure"] == "win rate"
    assert t["target"]["value"] == 0.5 and t["target"]["source"] == "players"
    assert "胜率 win rate 50% ± 5% (1 / players)" in r.output


@pytest.mark.parametrize("args,message", [
    (["不存在"], "no policy or advisor named '不存在'"),
    (["疫"], "is an event: tune measures policies and advisors"),
    (["银", "--field", "price"], "is an advisor: only a policy has a price"),
    (["长青", "--field", "params.gain"], "has no parameter 'gain'"),
    (["阶梯", "--field", "price[4]"], "has 3 prices ([1, 2, 3]), so it has no price[4]"),
    (["长青", "--field", "cost"], "'cost' is not a number of a card tune can change"),
    (["长青", "--range", "5..2"], "is no range: write LO..HI"),
    (["长青", "--range", "-3..2"], "price goes from 0 to 1,000,000,000"),
    (["长青", "--field", "score"], "has no `score:` line"),
    (["长青", "--target", "nan"], "nan is not a number tune can aim at"),
    (["长青", "--band", "inf"], "inf is not a number tune can aim at"),
])
def test_what_cannot_be_tuned_is_a_usage_error_in_plain_words(tmp_path, args, message):
    r = cli("tune", *args, "--content", TUNE, "--out", tmp_path / "out")
    assert r.exit_code == 2, r.output
    assert message in re.sub(r"\s+", " ", r.output)
    assert not (tmp_path / "out").exists()          # nothing made on disk


def test_tune_explains_itself_in_both_languages():
    command = main.commands["tune"]
    ctx = click.Context(command, info_name="tune")
    cjk, latin = re.compile(r"[\u4e00-\u9fff]"), re.compile(r"[A-Za-z]{3,}")
    for text in [command.help] + [p.help for p in command.get_params(ctx) if isinstance(p, click.Option)]:
        assert text and cjk.search(text) and latin.search(text), text

"""`rulekit serve` end to end in a real browser: Playwright drives Debian's Chromium (/usr/bin/chromium).

A person's whole 4-player game is played by clicking, and must be the game `rulekit play` plays with the same
seed and the same answers; a saved card reloads (an error shown with its file:line:column, the game kept); a
logged game replays step by step. Screenshots are written under tmp/artefacts (the path is printed).
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("watchfiles")
pytest.importorskip("playwright.sync_api")

from playwright.sync_api import sync_playwright

from tests.conftest import CONTENT
from rulekit.agents import make_agent
from rulekit.content.loader import load_content
from rulekit.play import END_WORDS, log_lines, play_game
from rulekit.serve.app import Running, make_app
from rulekit.serve.session import Options, Session
from tests.serve_browser import CHROMIUM, artefacts, click_an_answer, launch, next_question

if not Path(CHROMIUM).exists():
    # CI (.ci/run) installs Chromium and sets RULEKIT_REQUIRE_BROWSER: there a missing browser fails, never skips.
    if os.environ.get("RULEKIT_REQUIRE_BROWSER"):
        raise RuntimeError(f"no Chromium at {CHROMIUM}: apt-get install -y chromium")
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install -y chromium)", allow_module_level=True)

SEATS = ["human", "greedy", "greedy", "greedy"]
SEED = 4


class Answers:
    """The human's answers, given again to the same questions (as a scenario's script would)."""

    name = "human"

    def __init__(self, answers):
        self.answers = list(answers)

    def choose(self, obs, q) -> int:
        wanted = self.answers.pop(0)
        return next(k for k, o in enumerate(q.options) if json.loads(json.dumps(o)) == wanted)


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as p:
        b = launch(p)
        yield b
        b.close()


def _shot(page, name: str) -> str:
    path = artefacts() / name
    page.screenshot(path=str(path), full_page=True)
    print(f"screenshot: {path}")
    return str(path)


def test_a_whole_game_played_by_clicking_is_the_game_rulekit_play_plays_with_the_same_answers(browser, tmp_path):
    content = load_content(CONTENT)
    session = Session(Options(str(CONTENT), list(SEATS), SEED, 0.0, str(tmp_path)), content)
    session.start()
    server = Running(make_app(session, watch=False), session)
    page = browser.new_page(viewport={"width": 1500, "height": 1100})
    rng = random.Random(1)
    try:
        page.goto(server.url)
        last, mid, clicks = 0, None, 0
        while True:
            got = next_question(page, last)
            if got in ("over", "error"):
                break
            last = int(got)
            if clicks == 0:
                assert page.locator("#board .cell").count() == 100
                assert page.locator(".cell.tile").count() > 0           # face-down tiles are shown face down
                _shot(page, "serve-start.png")
            if mid is None and session.data["round"] >= 6:
                mid = _shot(page, "serve-mid-game.png")
            click_an_answer(page, rng)
            clicks += 1
        assert got == "over", page.inner_text("#notice")
        page.locator("#log").evaluate("e => e.scrollTop = e.scrollHeight")
        _shot(page, "serve-end.png")
        shown = json.loads(page.get_attribute("#final", "data-scores") or "[]")
        page.click("#save")
        page.wait_for_function("() => document.getElementById('saved').textContent.includes('.jsonl')")
        saved = re.search(r"(\S+\.jsonl)", page.inner_text("#saved")).group(1)
        log_text = page.inner_text("#log")
    finally:
        page.close()
        server.stop()
    assert mid is not None and clicks > 30
    records = [json.loads(line) for line in Path(saved).read_text(encoding="utf-8").splitlines()]
    header = records[0]
    assert header["agents"] == SEATS and header["seed"] == SEED
    answers = [r["a"] for r in records if r["e"] == "ask" and r["seat"] == 0]
    assert len(answers) == clicks
    # The same seed and the same answers in rulekit play: the same game, line for line, and the same final scores.
    choosers = [Answers(answers), *(make_agent("greedy", SEED, s) for s in (1, 2, 3))]
    played = play_game(content, SEED, ["greedy"] * 4, 4, header=header, choosers=choosers, verbose=True)
    scores = [p.score for p in played.game.state.seats]
    assert played.game.state.end_reason in END_WORDS
    assert shown == scores
    assert log_lines(played.log) == Path(saved).read_text(encoding="utf-8").splitlines()
    # The page's log says what each card did, in the words of `rulekit play -v`.
    assert "打出 plays" in log_text and "▸ " in log_text and "终局 Final scores" in log_text


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_a_saved_card_is_offered_and_a_broken_one_is_shown_with_its_place_while_the_game_goes_on(browser, tmp_path):
    folder = tmp_path / "content"
    shutil.copytree(CONTENT, folder, ignore=shutil.ignore_patterns("scenarios"))
    card = folder / "policies" / "stage1.yaml"
    session = Session(Options(str(folder), list(SEATS), SEED, 0.0, str(tmp_path)), load_content(folder))
    session.start()
    server = Running(make_app(session, watch=True), session)
    page = browser.new_page(viewport={"width": 1500, "height": 1100})
    rng = random.Random(2)
    try:
        page.goto(server.url)
        last = 0
        for _ in range(4):
            last = int(next_question(page, last))
            click_an_answer(page, rng)
        last = int(next_question(page, last))
        before = list(session.answers)
        _edit(card, "medical += 1", "medical += = 1")
        page.wait_for_selector("#lint:not([hidden])", timeout=10_000)
        lint = page.inner_text("#lint")
        assert re.search(r"stage1\.yaml:\d+:\d+", lint), lint
        _shot(page, "serve-lint-error.png")
        assert page.get_attribute("#question", "data-qid") == str(last)     # the game in progress is kept
        assert page.locator("#offer").is_hidden()
        _edit(card, "medical += = 1", "medical += 2")
        page.wait_for_selector("#offer:not([hidden])", timeout=10_000)
        assert page.locator("#lint").is_hidden()
        assert "stage1.yaml" in page.inner_text("#offer-text")
        page.click("#restart-continue")
        page.wait_for_function("() => document.getElementById('offer').hidden")
        next_question(page, 0)
        # The new content's game went on from the same answers (as far as the change allowed).
        assert session.answers[: len(before)] == before[: len(session.answers)]
        assert session.content.fingerprint != load_content(CONTENT).fingerprint
    finally:
        page.close()
        server.stop()


def test_a_logged_game_opens_step_by_step(browser, tmp_path):
    content = load_content(CONTENT)
    header = {"e": "header", "format": 2, "rulekit": "0.1.0", "engine_code": "", "agent_code": "", "seed": 9,
              "players": 4, "agents": ["greedy"] * 4, "content": str(CONTENT), "fingerprint": content.fingerprint,
              "include_tbd": False, "only_designed": False}
    played = play_game(content, 9, ["greedy"] * 4, 4, header=header)
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(log_lines(played.log)) + "\n", encoding="utf-8")
    from rulekit.serve.replay import start_replay

    session = Session(Options(str(CONTENT), ["greedy"] * 4, 9, 0.0, str(tmp_path), str(path)), content)
    start_replay(session, str(path))
    server = Running(make_app(session, watch=False), session)
    page = browser.new_page(viewport={"width": 1500, "height": 1100})
    try:
        page.goto(server.url)
        page.wait_for_selector("#replay-controls:not([hidden])")
        total = sum(1 for r in played.log if r["e"] == "ask")
        for n in (1, 2, 3):
            page.click("#step")
            page.wait_for_function(f"() => document.getElementById('replay-progress').textContent.includes('{n} / {total}')")
        page.click("#play")
        page.wait_for_selector("#status[data-status=over]", timeout=30_000)
        shown = json.loads(page.get_attribute("#final", "data-scores") or "[]")
    finally:
        page.close()
        server.stop()
    assert shown == [p.score for p in played.game.state.seats]

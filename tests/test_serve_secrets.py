"""The page of `rulekit serve` holds nothing the human seat may not see: no tile front, no other hand, no sealed bid.

A whole 4-player game is played through the server's HTTP API (the human answering at random), and every
response is checked against the live game at that moment: the game thread is waiting for the human then,
so the table does not move while it is read.
"""

from __future__ import annotations

import json
import random
import re
import urllib.error
import urllib.request
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from tests.conftest import CONTENT
from rulekit.content.loader import load_content
from rulekit.core import board as B
from rulekit.serve.app import Running, make_app
from rulekit.serve.session import Options, Session
from rulekit.serve.view import PublicLog

SEATS = ["human", "greedy", "greedy", "greedy"]


@pytest.fixture(scope="module")
def content():
    return load_content(CONTENT)


def _get(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(url, timeout=30) as r:
        return json.load(r)


def _post(url: str, body: Any) -> tuple[int, dict[str, Any]]:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.load(r)
    except urllib.error.HTTPError as err:
        return err.code, json.load(err)


def _ids(v: Any, out: set[str]) -> set[str]:
    """Every card id the response names: each `id` field, and each `名字 (id)` of the log's lines."""
    if isinstance(v, dict):
        for k, x in v.items():
            if k == "id" and isinstance(x, str):
                out.add(x)
            _ids(x, out)
    elif isinstance(v, list):
        for x in v:
            _ids(x, out)
    elif isinstance(v, str):
        out.update(re.findall(r"\(([a-z0-9_]+)\)", v))
    return out


def _public_ids(game) -> set[str]:
    """Card ids the human seat has seen somewhere by now: played, offered, sold, in its own hand, events."""
    seen: set[str] = set()
    for rec in game.log:
        e = rec.get("e")
        public = e in ("play", "execute", "switch", "offer", "unsold", "sold", "event", "combo", "fire", "modifier", "done",
                       "spent")
        mine = (e == "draw" and rec["seat"] == 0) or (e == "given" and 0 in (rec["seat"], rec["to"]))
        if public or mine:
            seen.add(rec["card"])
        elif e == "ask" and rec["seat"] == 0 and isinstance(rec["a"], str):
            seen.add(rec["a"])
    for p in game.state.seats:
        if p.seat == 0:
            seen.update(c.id for c in p.hand)
        seen.update(e.card.id for e in p.tableau)
    return seen


def test_no_response_over_a_whole_game_shows_a_tile_front_another_hand_or_a_sealed_bid(content):
    session = Session(Options(str(CONTENT), list(SEATS), 11, 0.0, "."), content)
    session.start()
    server = Running(make_app(session, watch=False), session)
    rng = random.Random(5)
    version = since = 0
    checked_tiles = checked_hands = bids = 0
    try:
        while True:
            body = _get(f"{server.url}/api/state?after={version}&since={since}")
            version, since = body["version"], since + len(body["lines"])
            if body["status"] != "playing":
                break
            q = body["question"]
            if q is None:
                continue
            game = session.game
            st = game.state
            text = json.dumps(body, ensure_ascii=False)
            # Tile fronts: every face-down tile reads "tile", whatever its front; no field names a front.
            for i in range(B.SIZE * B.SIZE):
                if st.board[i] == B.TILE:
                    assert body["board"][i] == "tile", (i, body["board"][i])
                    checked_tiles += st.fronts[i]
            assert "front" not in text.replace("fronts were hidden", "")
            # Other hands: a card only another seat holds, never seen by P1, is named nowhere in the response.
            # (the human's own question shows what it is choosing among: cards it drew to keep one, say)
            own = {o for o in session.asked.options if isinstance(o, str)}
            secret = {c.id for p in st.seats[1:] for c in p.hand} - _public_ids(game) - own
            named = _ids(body, set())
            leaked = secret & named
            assert not leaked, f"the page names {leaked}, held only in another hand"
            checked_hands += len(secret)
            # Sealed bids: no response carries another seat's answers; the human's own bid question has only its range.
            if q["kind"] == "bid":
                bids += 1
                assert [o["number"] for o in q["options"]] == list(range(st.seats[0].money + 1))
            assert not re.search(r"P[234]\S* (bids|answers|answered)", text)
            status, answer = _post(f"{server.url}/api/answer", {"qid": q["qid"], "k": rng.randrange(len(q["options"]))})
            assert status == 200, answer
    finally:
        server.stop()
    assert body["status"] == "over"
    # The checks above had something to check: infected fronts face down, hidden cards in other hands, auctions.
    assert checked_tiles > 0 and checked_hands > 0 and bids > 0


def test_the_page_log_is_the_same_whatever_another_seat_answered(content):
    """Another seat's answers (its sealed bids, the cards it kept, discarded or gave) change nothing in the log a seat
    reads: only what they led to, which every seat saw."""
    from rulekit.play import play_game

    played = play_game(content, 3, ["greedy"] * 4, 4, header={"e": "header"}, verbose=True)
    log = played.log[1:]
    assert any(r["e"] == "ask" and r["q"] == "bid" and r["seat"] != 0 for r in log)
    changed = [dict(r, a=97) if r["e"] == "ask" and r["seat"] != 0 else r for r in log]
    changed = [dict(r, card="brainstorm") if r["e"] in ("draw",) and r["seat"] != 0 else r for r in changed]
    seen, other = PublicLog(0, str), PublicLog(0, str)
    seen.feed(log)
    other.feed(changed)
    assert seen.lines == other.lines
    assert any("一张牌 a card" in line for line in seen.lines)      # another seat's draws are there, veiled


def test_a_stale_or_forged_answer_is_refused_with_a_message_and_the_game_waits(content):
    session = Session(Options(str(CONTENT), list(SEATS), 2, 0.0, "."), content)
    session.start()
    server = Running(make_app(session, watch=False), session)
    try:
        body = _get(f"{server.url}/api/state?after=0")
        while body["question"] is None:
            body = _get(f"{server.url}/api/state?after={body['version']}")
        q = body["question"]
        n = len(q["options"])
        for forged in ({"qid": q["qid"] - 1, "k": 0}, {"qid": q["qid"], "k": n}, {"qid": q["qid"], "k": "0"},
                       {"qid": q["qid"], "k": True}, {"qid": str(q["qid"]), "k": 0}, {"k": 0}):
            status, answer = _post(f"{server.url}/api/answer", forged)
            assert status == 409 and not answer["ok"], forged
            assert " · " in answer["error"], answer      # in Chinese and in English
        assert "stale" in _post(f"{server.url}/api/answer", {"qid": q["qid"] + 3, "k": 0})[1]["error"]
        assert "not the index" in _post(f"{server.url}/api/answer", {"qid": q["qid"], "k": n})[1]["error"]
        assert session.answers == [] and session.asked is not None      # nothing was answered: the game waits
        status, answer = _post(f"{server.url}/api/answer", {"qid": q["qid"], "k": 0})
        assert status == 200
        status, again = _post(f"{server.url}/api/answer", {"qid": q["qid"], "k": 0})
        assert status == 409 and "stale" in again["error"]              # the same answer twice counts once
        assert len(session.answers) == 1
    finally:
        server.stop()


def test_the_page_says_the_round_phase_and_step_the_game_stands_at(content):
    """The page's heading reads the step from the seat's observation: the same step the engine stands at."""
    from rulekit.agents.base import RandomAgent
    from rulekit.engine import make_game
    from rulekit.serve.view import page

    game = make_game(content, 3, [RandomAgent(3, s) for s in range(4)])
    seen = set()
    while (q := game.pending()) is not None and game.state.round <= 2:
        data = page(game.observation(0))
        cur = game.state.cursor
        assert (data["round"], data["phase"], data["step"]) == (game.state.round, cur.phase, cur.step)
        seen.add(data["step"])
        game.answer(game.choosers[q.seat].choose(game.observation(q.seat), q))
    assert len(seen) > 3

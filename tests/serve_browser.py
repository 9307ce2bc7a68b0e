"""What the browser tests and the reload benchmark of `rulekit serve` share: a served game, Debian's Chromium through
Playwright, and a human who answers by clicking (seeded, so a run can be repeated)."""

from __future__ import annotations

import os
import random
import tempfile
from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"


def artefacts() -> Path:
    """Where screenshots go: $RULEKIT_ARTEFACTS, else tmp/artefacts under the system's temporary folder."""
    folder = Path(os.environ.get("RULEKIT_ARTEFACTS") or Path(tempfile.gettempdir()) / "artefacts" / "serve")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def launch(playwright: Any) -> Any:
    return playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])


QUESTION_OR_END = """(last) => {
  const status = document.getElementById('status').dataset.status;
  if (status === 'over' || status === 'error') return status;
  const q = document.getElementById('question');
  const qid = q.hidden ? 0 : Number(q.dataset.qid || 0);
  return qid > last ? String(qid) : false;
}"""


def next_question(page: Any, last: int, timeout: float = 20_000) -> str:
    """Wait until the page asks a newer question than `last` (its qid, as text) or the game ends ('over', 'error')."""
    return page.wait_for_function(QUESTION_OR_END, arg=last, timeout=timeout).json_value()


# The centres of what can be clicked now: the option buttons, and the cells marked for this question (or, once a
# resident is picked up, the cells it can go to).
CENTRES = """(what) => [...document.querySelectorAll(what)].map((e) => {
  e.scrollIntoViewIfNeeded();
  const r = e.getBoundingClientRect();
  return [r.x + r.width / 2, r.y + r.height / 2];
})"""


def click_an_answer(page: Any, rng: random.Random) -> None:
    """Answer the question on the page as a person would, with the mouse: a button, or a cell of the board (two
    for a move: the resident, then where it goes; or the resident, then the button that buries it)."""
    spots = page.evaluate(CENTRES, "#options button.option, .cell.pick")
    x, y = spots[rng.randrange(len(spots))]
    page.mouse.click(x, y)
    targets = page.evaluate(CENTRES, "#options button.option, .cell.target")
    if page.evaluate("() => document.querySelectorAll('.cell.source').length"):
        x, y = targets[rng.randrange(len(targets))]
        page.mouse.click(x, y)

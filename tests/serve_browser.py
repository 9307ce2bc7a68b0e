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


def click_an_answer(page: Any, rng: random.Random) -> None:
    """Answer the question on the page as a person would: a button, or a cell of the board (two for a move)."""
    buttons = page.locator("#options button.option")
    cells = page.locator(".cell.pick")
    n_buttons, n_cells = buttons.count(), cells.count()
    pick = rng.randrange(n_buttons + n_cells)
    if pick < n_buttons:
        buttons.nth(pick).click()
        return
    cell = cells.nth(pick - n_buttons)
    cell.click()
    targets = page.locator(".cell.target")
    if targets.count():                     # a resident picked up: put it down, or bury it where it lies
        options = targets.count() + page.locator("#options button.option").count()
        k = rng.randrange(options)
        if k < targets.count():
            targets.nth(k).click()
        else:
            page.locator("#options button.option").nth(k - targets.count()).click()

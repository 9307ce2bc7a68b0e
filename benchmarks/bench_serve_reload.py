"""How long from a card file saved to `rulekit serve`'s page offering the new content, in a real browser.

A copy of the content is served (pause 0) and opened in Debian's Chromium through Playwright; one card's number
is changed and saved again and again, and each time the clock runs from the write until the page shows the offer
to restart (what a designer waits for). Prints each time, and the median and the slowest.

    python benchmarks/bench_serve_reload.py [--saves 10] [--content content]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from rulekit.content.loader import load_content  # noqa: E402
from rulekit.serve.app import Running, make_app  # noqa: E402
from rulekit.serve.session import Options, Session  # noqa: E402
from tests.serve_browser import launch  # noqa: E402

OFFERED = "() => !document.getElementById('offer').hidden"
GONE = "() => document.getElementById('offer').hidden"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--saves", type=int, default=10)
    ap.add_argument("--content", default=str(ROOT / "content"))
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "content"
        shutil.copytree(args.content, folder, ignore=shutil.ignore_patterns("scenarios"))
        card = next(p for p in sorted((folder / "policies").glob("*.yaml")) if "medical += 1" in p.read_text("utf-8"))
        text = card.read_text(encoding="utf-8")
        session = Session(Options(str(folder), ["human", "greedy", "greedy", "greedy"], 1, 0.0, tmp),
                          load_content(folder))
        session.start()
        server = Running(make_app(session, watch=True), session)
        times = []
        try:
            with sync_playwright() as p:
                browser = launch(p)
                page = browser.new_page()
                page.goto(server.url)
                page.wait_for_selector("#question:not([hidden])")
                for n in range(args.saves):
                    start = time.perf_counter()
                    card.write_text(text.replace("medical += 1", f"medical += {2 + n % 2}", 1), encoding="utf-8")
                    page.wait_for_function(OFFERED, timeout=30_000)
                    times.append(time.perf_counter() - start)
                    page.click("#restart-new")
                    page.wait_for_function(GONE, timeout=30_000)
                    page.wait_for_selector("#question:not([hidden])")
                browser.close()
        finally:
            server.stop()
    cards = len(session.content.cards)
    print(f"card file saved -> page offers the new content, {len(times)} saves ({card.name}, {cards} cards):")
    print("  each (ms): " + ", ".join(f"{t * 1000:.0f}" for t in times))
    print(f"  median {statistics.median(times) * 1000:.0f} ms, slowest {max(times) * 1000:.0f} ms")


if __name__ == "__main__":
    main()

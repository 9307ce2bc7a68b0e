"""How fast `rulekit lsp` answers, end to end over stdio, on a copy of the shipped content.

Diagnostics: the time from sending a change of the open file (the first policy file with a card a combo
names: policies/stage2.yaml in the shipped content) to receiving that file's diagnostics, over 100 edits
that alternate a typo in a track (an RK201 in the file) and a rename of the card the combo names (an RK224
in combos/: cross-file), each followed by its undoing.
Completion: the time of a completion request for card names inside `played("` (100 requests).
Targets (issue 20): median diagnostics within 150 ms, completion within 50 ms.

    python benchmarks/bench_lsp.py [--edits N] [--content DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types as T
from pygls.lsp.client import LanguageClient

CONTENT = Path(__file__).resolve().parents[1] / "content"


class Client(LanguageClient):
    def __init__(self) -> None:
        super().__init__("bench", "1")
        self.arrived: dict[str, asyncio.Event] = {}
        self.diags: dict[str, list[T.Diagnostic]] = {}


def _client() -> Client:
    client = Client()

    @client.feature(T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def published(params: T.PublishDiagnosticsParams) -> None:
        client.diags[params.uri] = list(params.diagnostics)
        event = client.arrived.get(params.uri)
        if event is not None:
            event.set()

    return client


async def _send(client: Client, uri: str, version: int, text: str) -> float:
    event = client.arrived[uri] = asyncio.Event()
    start = time.perf_counter()
    client.text_document_did_change(T.DidChangeTextDocumentParams(
        T.VersionedTextDocumentIdentifier(version, uri), [T.TextDocumentContentChangeWholeDocument(text)]))
    await event.wait()
    return time.perf_counter() - start


def _ms(xs: list[float]) -> str:
    xs = sorted(xs)
    return (f"median {statistics.median(xs) * 1000:.1f} ms, p90 {xs[int(len(xs) * 0.9)] * 1000:.1f} ms, "
            f"max {xs[-1] * 1000:.1f} ms")


def _edits(root: Path) -> tuple[Path, str, str, str]:
    """The file to edit, its text, the text with a typo in a track (RK201), and with a card a combo names renamed."""
    combos = (root / "combos").rglob("*.y*ml")
    named = [m.group(1) for f in combos for m in re.finditer(r'played\("([^"]+)"\)', f.read_text(encoding="utf-8"))]
    for path in sorted((root / "policies").rglob("*.y*ml")):
        good = path.read_text(encoding="utf-8")
        card = next((n for n in named if f"name: {n}\n" in good), None)
        track = re.search(r"^(\s+)(medical|disease|policy|score|economy|money) ([-+]=)", good, re.MULTILINE)
        if card is not None and track is not None:
            typo = good[:track.start(2)] + track.group(2)[:-1] + good[track.end(2):]
            return path, good, typo, good.replace(f"name: {card}\n", f"name: {card}改\n", 1)
    raise SystemExit("no policy file with both a track change and a card a combo names: give another --content")


async def run(edits: int, content: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "content"
        shutil.copytree(content, root)
        stage2, good, typo, renamed = _edits(root)
        combos = [p.as_uri() for p in (root / "combos").rglob("*.y*ml")]
        variants = [typo, good, renamed, good]
        client = _client()
        await client.start_io(sys.executable, "-m", "rulekit", "lsp")
        await client.initialize_async(T.InitializeParams(capabilities=T.ClientCapabilities()))
        client.initialized(T.InitializedParams())
        uri = stage2.as_uri()
        client.arrived[uri] = asyncio.Event()
        start = time.perf_counter()
        client.text_document_did_open(T.DidOpenTextDocumentParams(T.TextDocumentItem(uri, "yaml", 1, good)))
        await client.arrived[uri].wait()
        first = time.perf_counter() - start
        times, cross = [], []
        for i in range(edits):
            text = variants[i % 4]
            took = await _send(client, uri, i + 2, text)
            times.append(took)
            own = {d.code for d in client.diags.get(uri, [])}
            if i % 4 == 0:
                assert "RK201" in own, own
            if i % 4 == 2:
                cross.append(took)
                assert any(d.code == "RK224" for c in combos for d in client.diags.get(c, [])), "no cross-file diagnostic"
        lines = good.split("\n")
        n = next(i for i, s in enumerate(lines) if "effect: |" in s) + 2
        typed = [*lines[:n], '      if played("', *lines[n:]]
        await _send(client, uri, edits + 10, "\n".join(typed))
        asked = []
        for _ in range(100):
            start = time.perf_counter()
            done = await client.text_document_completion_async(T.CompletionParams(
                T.TextDocumentIdentifier(uri), T.Position(n, len('      if played("'))))
            asked.append(time.perf_counter() - start)
        items = done.items if isinstance(done, T.CompletionList) else (done or [])
        assert items, "no card offered in played(\"…\")"
        await client.shutdown_async(None)
        client.exit(None)
        await client.stop()
    cards = [p for p in content.rglob("*.yaml") if "scenarios" not in p.relative_to(content).parts]
    print(f"rulekit lsp on {content} ({len(cards)} card and rules files), over stdio, editing {stage2.name}:")
    print(f"  first diagnostics after opening it (cold: grammar and every file): {first * 1000:.0f} ms")
    print(f"  diagnostics after a change, {edits} edits:            {_ms(times)}   (target: median <= 150 ms)")
    print(f"    of which the cross-file renames ({len(cross)}):          {_ms(cross)}")
    print(f"  completion of card names in played(\"…\"), 100 requests: {_ms(asked)}   (target: median <= 50 ms)")
    print(f"  ({len(items)} items offered)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--edits", type=int, default=100)
    parser.add_argument("--content", type=Path, default=CONTENT, help="the content folder (default: the shipped one)")
    args = parser.parse_args()
    asyncio.run(run(args.edits, args.content.absolute()))


if __name__ == "__main__":
    main()

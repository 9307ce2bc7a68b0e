"""Cards per second of `rulekit lint`, cold and with a warm cache, on a few thousand generated cards.

Run by hand: `python benchmarks/bench_lint.py [--cards N] [--breakdown] [--content DIR]`. Prints figures;
asserts nothing. The cards are the shipped content (or DIR) copied with new ids, names and numbers, so every
effect text differs; one process, pinned to one core where the system allows it.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_ID = re.compile(r"^(\s*-?\s*id: )(\w+)", re.M)
_NAME = re.compile(r"^(\s*-?\s*name: )(.+)$", re.M)
_QUOTED = re.compile(r'"([^"\n]+)"')
_SMALL = re.compile(r"(?<=[ (])(?<!stage )(?<!unlocked\()([1-4])(?=[\s),])")


def generate(folder: Path, cards: int, src: Path, seed: int = 1) -> int:
    """Copies of the content folder src with new ids, names and numbers until there are `cards` cards."""
    folder.mkdir(parents=True)
    shutil.copy(src / "rules.yaml", folder / "rules.yaml")
    texts = {p.relative_to(src): p.read_text(encoding="utf-8")
             for p in sorted(src.rglob("*.yaml")) if p.name != "rules.yaml" and ".rulekit_cache" not in p.parts}
    names = {m.group(2) for t in texts.values() for m in _NAME.finditer(t)}
    names |= {m.group(2) for t in texts.values() for m in _ID.finditer(t)}
    rng = random.Random(seed)
    count, copy = 0, 0
    while count < cards:
        for rel, text in texts.items():
            text = _ID.sub(lambda m, c=copy: f"{m.group(1)}{m.group(2)}_{c}", text)
            text = _NAME.sub(lambda m, c=copy: f"{m.group(1)}{m.group(2)}{c}", text)
            text = _QUOTED.sub(lambda m, c=copy: f'"{m.group(1)}{c}"' if m.group(1) in names else m.group(0), text)
            text = "\n".join(_SMALL.sub(lambda m: str(rng.randint(1, 4)), line) if line.startswith("      ") else line
                             for line in text.split("\n"))
            out = folder / rel.parent / f"{rel.stem}_{copy}.yaml"
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(text, encoding="utf-8")
            count += len(_ID.findall(text))
        copy += 1
    return count


def timed(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def breakdown(folder: Path) -> dict[str, float]:
    """Seconds spent in each per-file stage of a cold run, measured by wrapping the loader's steps."""
    from rulekit.content import loader
    from rulekit.lint.run import lint

    spent: dict[str, float] = defaultdict(float)
    wrapped = {"read_yaml (YAML with positions)": "read_yaml", "validate (JSON Schemas)": "validate",
               "parse_effect (Lark)": "parse_effect", "check_program (checker)": "check_program"}
    saved = {}
    for label, attr in wrapped.items():
        real = getattr(loader, attr)
        saved[attr] = real

        def timing(*args, _real=real, _label=label, **kwargs):
            start = time.perf_counter()
            try:
                return _real(*args, **kwargs)
            finally:
                spent[_label] += time.perf_counter() - start

        setattr(loader, attr, timing)
    try:
        start = time.perf_counter()
        lint([folder], use_cache=False)
        spent["total"] = time.perf_counter() - start
    finally:
        for attr, real in saved.items():
            setattr(loader, attr, real)
    return dict(spent)


def cli_seconds(folder: Path, *args: str) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "rulekit", "lint", str(folder), "--output-format", "concise", *args],
                   capture_output=True, check=False)
    return time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--cards", type=int, default=3000)
    ap.add_argument("--repeat", type=int, default=3, help="best of this many runs (cold runs: at most 2)")
    ap.add_argument("--breakdown", action="store_true", help="also show where a cold run spends its time")
    ap.add_argument("--content", type=Path, default=ROOT / "content",
                    help="the content folder to copy (default: the shipped content/)")
    args = ap.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})

    from rulekit.lint.run import lint

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "content"
        cards = generate(folder, args.cards, args.content)
        files = sum(1 for _ in folder.rglob("*.yaml"))
        os.environ["RULEKIT_CACHE_DIR"] = str(Path(tmp) / "cache")
        found = lint([folder], use_cache=False).diagnostics
        print(f"{cards} cards in {files} files, {len(found)} diagnostics; one core, in one process")

        cold = timed(lambda: lint([folder], use_cache=False), min(args.repeat, 2))

        def fill():
            shutil.rmtree(Path(tmp) / "cache", ignore_errors=True)
            lint([folder])

        filling = timed(fill, min(args.repeat, 2))
        warm = timed(lambda: lint([folder]), args.repeat)
        print(f"cold, no cache     {cold:6.2f} s  {cards / cold:8.0f} cards/s")
        print(f"cold, filling it   {filling:6.2f} s  {cards / filling:8.0f} cards/s")
        print(f"warm cache         {warm:6.2f} s  {cards / warm:8.0f} cards/s   {cold / warm:5.1f}x faster than cold")

        cli_cold = cli_seconds(folder, "--no-cache")
        cli_warm = cli_seconds(folder)
        print(f"`rulekit lint` as a command (with Python start-up): cold {cli_cold:.2f} s, warm {cli_warm:.2f} s")

        if args.breakdown:
            spent = breakdown(folder)
            total = spent.pop("total")
            print(f"where a cold run's {total:.2f} s go:")
            for label, seconds in sorted(spent.items(), key=lambda kv: -kv[1]):
                print(f"  {label:34} {seconds:6.2f} s  {100 * seconds / total:4.0f}%")


if __name__ == "__main__":
    main()

"""Hostile content files: too big, aliases that repeat a part past the limits, links that leave the
folder or loop, and a file edited while rulekit reads it — each a clear message with its place."""

from __future__ import annotations

import io
import json
import os
import shutil
import tracemalloc
from pathlib import Path

import pytest

from rulekit.content import yamlpos
from rulekit.content.loader import check_paths, content_files, load_content
from rulekit.lint.run import lint
from rulekit.registry import LIMITS
from tests.conftest import ENGINE_CONTENT
from tests.hostile import content, errors, run  # noqa: F401  (content is a fixture)
from tests.lint_fixtures import private_lint_cache  # noqa: F401  (the lint cache in a folder of the tests)

LIMIT = LIMITS["file_size"].value
needs_links = pytest.mark.skipif(not hasattr(os, "symlink") or os.name == "nt", reason="symlinks")


def where(d) -> tuple:
    return d.code, Path(d.file).name, d.line, d.col


# ---- aliases ---------------------------------------------------------------------------------------

def alias_bomb(copies: int = 99) -> tuple[str, int, int]:
    """One effect anchored once and aliased `copies` times; the line and column of the alias that
    writes the file out past the limit."""
    effect = "on play:\n" + "".join(f"  money += {i % 9 + 1}\n" for i in range(8_000))
    text = "- id: c0\n  name: 卡0\n  stage: 1\n  price: 1\n  effect: &effect " + json.dumps(effect) + "\n"
    text += "".join(f"- id: c{i}\n  name: 卡{i}\n  stage: 1\n  price: 1\n  effect: *effect\n" for i in range(1, copies + 1))
    crossing = LIMIT // len(effect)            # the first alias past the limit (the anchor holds one copy)
    lines = text.splitlines()
    aliases = [n for n, line in enumerate(lines, 1) if line.endswith("*effect")]
    line = aliases[crossing - 1]
    return text, line, lines[line - 1].index("*") + 1


def test_an_effect_aliased_99_times_is_refused_at_the_alias_that_crosses_the_limit(content):
    text, line, col = alias_bomb()
    assert 100_000 < len(text.encode()) < LIMIT       # a small file that would be checked as 16 MB of effects
    (content / "policies" / "bomb.yaml").write_text(text, encoding="utf-8")
    [d] = [d for d in errors(content) if d.code == "RK017"]
    assert where(d) == ("RK017", "bomb.yaml", line, col)
    assert "*effect" in d.message and "1,000,000 characters" in d.message
    r = run("lint", content, "--no-cache", "--output-format", "concise")
    assert r.exit_code == 1 and f"bomb.yaml:{line}:{col}: RK017" in r.output


def test_the_pure_python_reader_finds_the_same_alias(content, monkeypatch):
    text, line, col = alias_bomb()
    monkeypatch.setattr(yamlpos, "_FastLoader", None)
    loc, found = yamlpos.parse_yaml(text, "bomb.yaml")
    assert loc is None and [(d.code, d.line, d.col) for d in found] == [("RK017", line, col)]


def test_an_alias_inside_its_own_anchor_is_refused_where_it_stands():
    loc, found = yamlpos.parse_yaml("- id: a\n  notes: &n [x, *n]\n")
    assert loc is None and [(d.code, d.line, d.col) for d in found] == [("RK001", 2, 17)]


def test_a_scenario_file_is_read_with_the_same_limits(tmp_path):
    text, line, col = alias_bomb(30)
    body = "scenario: many aliases\ncards:\n" + "".join("  " + ln + "\n" for ln in text.splitlines())
    path = tmp_path / "bomb.scenario.yaml"
    path.write_text(body, encoding="utf-8")
    r = run("test", path, "--content", ENGINE_CONTENT)
    assert r.exit_code == 1
    assert f"bomb.scenario.yaml:{line + 2}:{col + 2}" in r.output and "RK017" in r.output, r.output


# ---- file size ---------------------------------------------------------------------------------------

def test_a_file_over_the_size_limit_is_refused_unread(content):
    card = (content / "policies" / "cards.yaml").read_text(encoding="utf-8")
    (content / "policies" / "cards.yaml").write_text(card + "#" * (LIMIT - len(card.encode())) + "\n", encoding="utf-8")
    [d] = errors(content)
    assert (d.code, d.file, d.line) == ("RK017", str(content / "policies" / "cards.yaml"), 0)
    assert "this file is 1,000,001 bytes" in d.message and "at most 1,000,000 bytes" in d.message


def test_a_300_mb_card_file_costs_no_memory_and_play_playtest_and_test_say_so(content, tmp_path):
    huge = content / "events" / "huge.yaml"
    with open(huge, "wb") as f:
        f.truncate(300_000_000)                 # sparse: nothing is written to the disk
    tracemalloc.start()
    try:
        _, found = check_paths([content])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 20_000_000
    [d] = [d for d in found if d.code == "RK017"]
    assert d.file == str(huge) and "this file is 300 MB" in d.message
    scenario = tmp_path / "one.scenario.yaml"
    scenario.write_text("scenario: nothing\nsteps: []\n", encoding="utf-8")
    for args in (["play", "--content", content], ["playtest", content, "--games", "1", "--out", tmp_path / "out"],
                 ["test", scenario, "--content", content]):
        r = run(*args)
        assert r.exit_code == 1, (args, r.output)
        assert "huge.yaml: RK017 this file is 300 MB" in r.output and "Traceback" not in r.output


def test_a_scenario_file_over_the_limit_is_refused(tmp_path):
    path = tmp_path / "big.scenario.yaml"
    with open(path, "wb") as f:
        f.truncate(LIMIT + 1)
    r = run("test", path, "--content", ENGINE_CONTENT)
    assert r.exit_code == 1 and "RK017" in r.output and "MemoryError" not in r.output


# ---- links -----------------------------------------------------------------------------------------

@needs_links
def test_a_card_file_linked_from_outside_is_refused_by_lint_and_play_alike(content, tmp_path):
    outside = tmp_path / "elsewhere.yaml"
    shutil.move(content / "events" / "events.yaml", outside)
    (content / "events" / "events.yaml").symlink_to(outside)
    message = f"{content / 'events' / 'events.yaml'}: RK016 this link (symlink) leads outside the content folder"
    r = run("lint", content, "--no-cache", "--output-format", "concise")
    assert r.exit_code == 1 and message in r.output, r.output
    r = run("play", "--content", content)
    assert r.exit_code == 1 and message in r.output


@needs_links
def test_rules_yaml_linked_from_outside_is_refused_not_missing(content, tmp_path):
    shutil.move(content / "rules.yaml", tmp_path / "rules.yaml")
    (content / "rules.yaml").symlink_to(tmp_path / "rules.yaml")
    assert [where(d) for d in errors(content)] == [("RK016", "rules.yaml", 0, 0)]


@needs_links
@pytest.mark.parametrize("make, words", [
    (lambda p: p.symlink_to(p.name), "round in a loop"),
    (lambda p: p.symlink_to("gone.yaml"), "to gone.yaml, which does not exist"),
    (lambda p: (p.parent / "up").symlink_to(".."), "a folder that holds the link itself"),
])
def test_loops_and_dangling_links_are_errors_with_their_path(content, make, words):
    link = content / "policies" / "more.yaml"
    make(link)
    shown = link if link.is_symlink() else content / "policies" / "up"
    r = run("lint", content, "--no-cache", "--output-format", "concise")
    assert r.exit_code == 1, r.output                       # not 2, an internal error
    assert f"{shown}: RK016 this link (symlink) leads " in r.output and words in r.output, r.output
    assert [d.code for d in errors(content)] == ["RK016"]


@needs_links
def test_links_inside_the_folder_are_followed_by_one_listing(content):
    (content / "variants").mkdir()
    shutil.move(content / "rules.yaml", content / "variants" / "short.yaml")
    (content / "variants" / "short.yaml").write_text("max_rounds: 3\n", encoding="utf-8")
    (content / "rules.yaml").symlink_to(Path("variants") / "short.yaml")
    shutil.move(content / "events", content / "events_v2")
    (content / "events").symlink_to("events_v2")
    listed = [p.relative_to(content).as_posix() for p in content_files(content).files]
    assert {"rules.yaml", "events/events.yaml", "events_v2/events.yaml"} <= set(listed)
    loaded = load_content(content)
    assert loaded.rules["max_rounds"] == 3 and loaded.lookup("plague") is not None
    r = run("play", "--content", content)
    assert r.exit_code == 0 and "Ended after round 3" in r.output, r.output


# ---- one read of each file, and its fingerprint ------------------------------------------------------

class EditAfterRead:
    """Replaces `target` with `replacement` on disk as soon as something opens it for the first time:
    what opened it reads the old bytes (it holds the old file), any later read the new ones."""

    def __init__(self, monkeypatch, target: Path, replacement: str):
        self.target = os.path.abspath(target)
        self.replacement = replacement
        self.done = False
        real_os_open, real_io_open = os.open, io.open

        def os_open(path, *args, **kwargs):
            fd = real_os_open(path, *args, **kwargs)
            self.after(path)
            return fd

        def io_open(path, *args, **kwargs):
            f = real_io_open(path, *args, **kwargs)
            self.after(path)
            return f

        monkeypatch.setattr(os, "open", os_open)
        monkeypatch.setattr(io, "open", io_open)

    def after(self, path) -> None:
        if self.done or isinstance(path, int) or os.path.abspath(path) != self.target:
            return
        self.done = True
        fresh = self.target + ".new"
        with open(fresh, "w", encoding="utf-8") as f:
            f.write(self.replacement)
        os.replace(fresh, self.target)


def edited_once_read(content: Path, tmp_path: Path, monkeypatch) -> Path:
    """A copy of the content as it is, then a card file changed on disk right after rulekit opens it."""
    pristine = tmp_path / "pristine"
    shutil.copytree(content, pristine)
    cards = content / "policies" / "cards.yaml"
    EditAfterRead(monkeypatch, cards, cards.read_text(encoding="utf-8").replace("money += 2", "money += 3"))
    return pristine


def test_play_logs_the_fingerprint_of_the_files_it_played(content, tmp_path, monkeypatch):
    pristine = edited_once_read(content, tmp_path, monkeypatch)
    log = tmp_path / "game.jsonl"
    assert run("play", "--content", content, "--log", log).exit_code == 0
    monkeypatch.undo()
    header = json.loads(log.read_text(encoding="utf-8").splitlines()[0])
    assert header["fingerprint"] == load_content(pristine).fingerprint != load_content(content).fingerprint
    r = run("replay", log)                               # the folder now holds the edit: refused up front
    assert r.exit_code == 1 and "fingerprint differs" in r.output, r.output
    r = run("replay", log, "--content", pristine)
    assert r.exit_code == 0 and "reproduced exactly" in r.output, r.output


def test_a_batch_stores_the_fingerprint_of_the_files_it_played(content, tmp_path, monkeypatch):
    pristine = edited_once_read(content, tmp_path, monkeypatch)
    out = tmp_path / "batch"
    assert run("playtest", content, "--games", "2", "--out", out, "--quiet").exit_code == 0
    monkeypatch.undo()
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["content"]["fingerprint"] == load_content(pristine).fingerprint
    r = run("playtest", content, "--games", "3", "--out", out, "--resume", "--quiet")
    assert r.exit_code == 1 and "content (a card or rules.yaml)" in r.output    # the edited files: another batch


# ---- lint: one read, and the cache keyed by it -----------------------------------------------------

BROKEN = "- id: broken\n  name: 坏\n  stage: 1\n  price: 1\n  effect: |\n    on play:\n      medcal += 1\n"
MENDED = BROKEN.replace("medcal", "medical")


def codes(report) -> list[str]:
    return sorted(d.code for d in report.diagnostics if d.severity == "error")


def test_lint_keys_its_cache_by_the_bytes_it_checked(content, monkeypatch):
    card = content / "policies" / "broken.yaml"
    card.write_text(BROKEN, encoding="utf-8")
    EditAfterRead(monkeypatch, card, MENDED)
    assert codes(lint([content])) == ["RK201"]           # the bytes it read, and keyed the cache by
    monkeypatch.undo()
    assert codes(lint([content])) == []                   # the mended file, checked afresh
    card.write_text(BROKEN, encoding="utf-8")
    assert codes(lint([content])) == codes(lint([content], use_cache=False)) == ["RK201"]

"""The per-file lint engine agrees with check_paths, and its cache never hides a folder-level problem."""

from __future__ import annotations

import json
import shutil
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulekit.cli import main
from rulekit.content.loader import check_paths
from rulekit.lint import cache, engine
from rulekit.lint.rules import RULES
from rulekit.lint.run import lint
from tests.conftest import CONTENT
from tests.lint_fixtures import private_lint_cache  # noqa: F401 — autouse: the cache away from ~/.cache



def key(d):
    return (d.file, d.line, d.col, d.end_line, d.end_col, d.code, d.severity, d.message, d.hint or "")


def same(a, b) -> bool:
    return sorted(map(key, a)) == sorted(map(key, b))


@pytest.fixture
def content(tmp_path) -> Path:
    shutil.copytree(CONTENT, tmp_path / "content", ignore=shutil.ignore_patterns(".rulekit_cache"))
    return tmp_path / "content"


def edit(p: Path, old: str, new: str) -> None:
    text = p.read_text(encoding="utf-8")
    assert old in text
    p.write_text(text.replace(old, new, 1), encoding="utf-8")


# ---- the same answer as check_paths ------------------------------------------------------------

def test_agrees_with_check_paths_on_the_real_content(content):
    expected = check_paths([content])[1]
    assert same(engine.check([content]), expected)
    assert same(lint([content]).diagnostics, expected)
    assert same(lint([content]).diagnostics, expected)


def test_agrees_on_single_files_kind_folders_and_loose_files(content, tmp_path):
    edit(content / "policies/stage1.yaml", "medical += 1", "medicl += 1")
    loose = tmp_path / "loose.yaml"
    loose.write_text("- id: x\n  name: X\n", encoding="utf-8")
    for paths in ([content / "policies/stage1.yaml"], [content / "combos"], [content / "rules.yaml"], [loose],
                  [content / "events", content / "policies/stage2.yaml"]):
        assert same(engine.check(paths), check_paths(paths)[1]), paths


@pytest.mark.parametrize("code", [c for c, r in RULES.items() if r.demo])
def test_agrees_on_every_rule_example(tmp_path, code):
    rule = RULES[code]
    root = tmp_path / "content"
    for rel, body in (*rule.context, (rule.path, rule.example)):
        f = root / rel
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_bytes(textwrap.dedent(body).encode(rule.encoding if body is rule.example else "utf-8"))
    expected = check_paths([root])[1]
    assert same(engine.check([root]), expected)
    assert same(lint([root]).diagnostics, expected)          # cold, filling the cache
    assert same(lint([root]).diagnostics, expected)          # warm, from slim cached facts


# ---- the cache --------------------------------------------------------------------------------------

class Counting:
    """Counts how many card files are really checked (not taken from the cache)."""

    def __init__(self, monkeypatch):
        self.calls: list[str] = []
        real = cache.card_file_facts

        def counted(path, kind, file):
            self.calls.append(Path(file).name)
            return real(path, kind, file)

        monkeypatch.setattr(cache, "card_file_facts", counted)


def test_a_second_run_reads_every_file_from_the_cache(content, monkeypatch):
    counting = Counting(monkeypatch)
    first = lint([content])
    assert len(counting.calls) == 6
    assert (cache.cache_dir(content) / "lint-files.json").is_file()
    assert not (content / ".rulekit_cache").exists()          # nothing is written into the content folder
    counting.calls.clear()
    second = lint([content])
    assert counting.calls == []
    assert same(first.diagnostics, second.diagnostics)


def test_a_changed_file_is_checked_again_and_only_it(content, monkeypatch):
    lint([content])
    counting = Counting(monkeypatch)
    edit(content / "policies/stage1.yaml", "medical += 1", "medicl += 1")
    report = lint([content])
    assert counting.calls == ["stage1.yaml"]
    assert [d.code for d in report.diagnostics if d.severity == "error"] == ["RK201"]


def test_folder_checks_still_run_over_cached_files(content, monkeypatch):
    lint([content])                              # every file cached, combos.yaml included
    # Rename a policy a cached combo refers to: the combo's file is unchanged, yet now wrong.
    edit(content / "policies/stage2.yaml", "name: 公共墓园", "name: 公共墓地")
    counting = Counting(monkeypatch)
    report = lint([content])
    assert counting.calls == ["stage2.yaml"]
    missing = [d for d in report.diagnostics if d.code == "RK224"]
    assert missing and missing[0].file.endswith("combos.yaml") and "公共墓园" in missing[0].message
    assert same(report.diagnostics, check_paths([content])[1])
    # A duplicate id between a cached file and a new one.
    (content / "policies/extra.yaml").write_text(
        "- id: hospital_expansion\n  name: 另一个\n  stage: 1\n  price: 1\n"
        "  effect: |\n    on play:\n      money += 1\n", encoding="utf-8")
    report = lint([content])
    assert [d.code for d in report.diagnostics if d.code == "RK301"] == ["RK301"]
    assert same(report.diagnostics, check_paths([content])[1])


def test_fixing_the_missing_card_clears_the_cached_reference(content):
    edit(content / "policies/stage2.yaml", "name: 公共墓园", "name: 公共墓地")
    assert any(d.code == "RK224" for d in lint([content]).diagnostics)
    edit(content / "policies/stage2.yaml", "name: 公共墓地", "name: 公共墓园")
    assert not any(d.code == "RK224" for d in lint([content]).diagnostics)


def test_no_cache_neither_reads_nor_writes(content, monkeypatch):
    counting = Counting(monkeypatch)
    lint([content], use_cache=False)
    lint([content], use_cache=False)
    assert len(counting.calls) == 12
    assert not cache.cache_dir(content).exists()
    result = CliRunner().invoke(main, ["lint", str(content), "--no-cache"])
    assert result.exit_code == 0 and not cache.cache_dir(content).exists()


def test_the_cache_directory_can_be_set(content, tmp_path, monkeypatch):
    monkeypatch.setenv("RULEKIT_CACHE_DIR", str(tmp_path / "elsewhere"))
    lint([content])
    assert cache.cache_dir(content).parent == tmp_path / "elsewhere"
    assert (cache.cache_dir(content) / "lint-files.json").is_file()


def test_a_damaged_or_foreign_cache_is_ignored(content, monkeypatch):
    lint([content])
    store = cache.cache_dir(content) / "lint-files.json"
    store.write_bytes(b"not JSON")
    counting = Counting(monkeypatch)
    assert same(lint([content]).diagnostics, check_paths([content])[1])
    assert len(counting.calls) == 6
    store.write_text(json.dumps({"generation": "another-rulekit", "entries": {}}))
    counting.calls.clear()
    lint([content])
    assert len(counting.calls) == 6


def test_a_new_rulekit_makes_a_new_cache(content, monkeypatch):
    lint([content])
    monkeypatch.setattr(cache, "fingerprint", lambda: "a newer rulekit")
    counting = Counting(monkeypatch)
    lint([content])
    assert len(counting.calls) == 6


def test_the_fingerprint_covers_grammar_registry_and_schemas():
    cache.fingerprint.cache_clear()
    assert len(cache.fingerprint()) == 64
    package = Path(cache.rulekit.__file__).parent
    seen = {p.name for p in package.rglob("*") if p.suffix in (".py", ".lark", ".json")}
    assert {"grammar.lark", "registry.py", "checker.py", "policy.json"} <= seen

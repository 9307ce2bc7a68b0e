"""The lint cache cannot run code, whatever its bytes, and lives outside the content folder."""

from __future__ import annotations

import json
import os
import pickle
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulekit.cli import main
from rulekit.content.loader import check_paths
from rulekit.lint import cache
from rulekit.lint.run import lint
from tests.conftest import CONTENT


class Hostile:
    """Unpickling this makes a folder: proof that a cache file ran code."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return os.mkdir, (str(self.marker),)


def key(d):
    return (d.file, d.line, d.col, d.code, d.severity, d.message, d.hint or "")


@pytest.fixture
def content(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("RULEKIT_CACHE_DIR", raising=False)
    shutil.copytree(CONTENT, tmp_path / "content")
    return tmp_path / "content"


def plant(folder: Path, marker: Path) -> None:
    """A hostile pickle under every name a lint cache has had, in folder."""
    folder.mkdir(parents=True, exist_ok=True)
    payload = pickle.dumps(Hostile(marker))
    for name in ("lint-files.pickle", "lint-files.json"):
        (folder / name).write_bytes(payload)


def test_a_pickle_in_the_content_folder_never_runs(content, tmp_path):
    marker = tmp_path / "ran"
    plant(content / ".rulekit_cache", marker)
    result = CliRunner().invoke(main, ["lint", str(content)])
    assert result.exit_code == 0, result.output
    assert not marker.exists()


def test_a_pickle_in_the_cache_folder_never_runs(content, tmp_path, monkeypatch):
    shared = tmp_path / "shared-cache"
    monkeypatch.setenv("RULEKIT_CACHE_DIR", str(shared))
    marker = tmp_path / "ran"
    plant(shared, marker)
    plant(cache.cache_dir(content), marker)
    expected = sorted(map(key, check_paths([content])[1]))
    assert sorted(map(key, lint([content]).diagnostics)) == expected
    assert not marker.exists()
    assert sorted(map(key, lint([content]).diagnostics)) == expected       # and the cache it wrote instead works


def test_the_cache_is_json_in_the_users_cache_folder_not_in_the_content(content, tmp_path):
    lint([content])
    folder = cache.cache_dir(content)
    assert folder.parent == tmp_path / "xdg" / "rulekit" / "lint"
    stored = json.loads((folder / "lint-files.json").read_text(encoding="utf-8"))
    assert set(stored) == {"generation", "entries"}
    assert not (content / ".rulekit_cache").exists()
    assert cache.cache_dir(content) != cache.cache_dir(CONTENT)   # one folder per content folder


def test_a_tampered_entry_is_checked_again_not_believed(content):
    (content / "policies" / "stage1.yaml").write_text(
        (content / "policies" / "stage1.yaml").read_text(encoding="utf-8").replace("medical += 1", "medicl += 1"),
        encoding="utf-8")
    expected = sorted(map(key, check_paths([content])[1]))
    lint([content])
    store = cache.cache_dir(content) / "lint-files.json"
    stored = json.loads(store.read_text(encoding="utf-8"))
    for entry in stored["entries"].values():       # keys kept, every value replaced by the wrong type or shape
        facts = entry["facts"]
        if "drafts" in facts:
            facts["diags"] = [["RK201", "error", 1, 2]]
            for draft in facts["drafts"]:
                draft["loc"]["data"]["copies"] = "many"
        else:
            facts["checked"] = {"diags": "none", "refs": [["policy"]]}
    store.write_text(json.dumps(stored), encoding="utf-8")
    assert sorted(map(key, lint([content]).diagnostics)) == expected

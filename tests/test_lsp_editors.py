"""The editors' side: the TextMate grammars are the registry's (and pass their scope tests), and a real
editor's LSP client (Neovim, headless) gets the server's diagnostic for a typo.

The grammar scope tests need `npm ci` in editors/vscode and the Neovim test needs `nvim` (Debian's
neovim); where they are missing these tests skip, unless RULEKIT_EDITOR_TESTS=1 (set in CI, see
editors/CI-NEEDS.md), where a missing tool is a failure.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rulekit.lsp import grammar
from tests import designer_copy
from tests.conftest import CONTENT

REPO = Path(__file__).resolve().parents[1]
VSCODE = REPO / "editors" / "vscode"
# The designer-edits copy (tests/designer_copy.py) leaves node_modules out: there the tools may be missing.
REQUIRED = os.environ.get("RULEKIT_EDITOR_TESTS") == "1" and os.environ.get(designer_copy.IN_COPY) != "1"


def _need(ok: bool, what: str) -> None:
    if not ok:
        if REQUIRED:
            pytest.fail(f"{what} is missing, and RULEKIT_EDITOR_TESTS=1 asks for the editor tests")
        pytest.skip(f"{what} is missing")


def test_the_grammar_files_are_the_ones_the_registry_makes(tmp_path: Path):
    grammar.write(tmp_path)
    for name in (grammar.EFFECT_FILE, grammar.INJECTION_FILE):
        made = json.loads((tmp_path / name).read_text(encoding="utf-8"))
        kept = json.loads((VSCODE / "syntaxes" / name).read_text(encoding="utf-8"))
        assert kept == made, f"run `python -m rulekit.lsp.grammar`: {name} is out of date"


def test_the_extension_declares_the_grammars_it_ships():
    package = json.loads((VSCODE / "package.json").read_text(encoding="utf-8"))
    grammars = {g["scopeName"]: g for g in package["contributes"]["grammars"]}
    assert grammars["rulekit.effect.injection"]["injectTo"] == ["source.yaml"]
    for g in grammars.values():
        assert (VSCODE / g["path"]).is_file()
    assert package["main"] == "./extension.js" and "vscode-languageclient" in package["dependencies"]


def test_the_grammar_colours_effect_text_in_the_sample_cards():
    tool = VSCODE / "node_modules" / ".bin" / "vscode-tmgrammar-test"
    _need(tool.exists() and shutil.which("node") is not None, "vscode-tmgrammar-test (npm ci in editors/vscode)")
    run = subprocess.run(["npm", "run", "--silent", "test:grammar"], cwd=VSCODE, capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.count("run successfuly") == len(list((VSCODE / "tests").glob("*.test.yaml")))


_NVIM_SCRIPT = r"""
local file, out = os.getenv("RK_FILE"), os.getenv("RK_OUT")
vim.g.rulekit_cmd = { os.getenv("RK_PYTHON"), "-m", "rulekit", "lsp" }
package.path = os.getenv("RK_LUA") .. "/?.lua;" .. package.path
vim.cmd("edit " .. vim.fn.fnameescape(file))
local rulekit = require("rulekit")
rulekit.attach(0)
local ok = vim.wait(30000, function() return #vim.diagnostic.get(0) > 0 end, 50)
local lines = {}
for _, d in ipairs(vim.diagnostic.get(0)) do
  table.insert(lines, string.format("%d:%d:%s:%s", d.lnum, d.col, tostring(d.code or (d.user_data and
    d.user_data.lsp and d.user_data.lsp.code)), d.message:gsub("\n", " ")))
end
if not ok then table.insert(lines, "TIMEOUT") end
vim.fn.writefile(lines, out)
vim.cmd("qall!")
"""


def test_neovim_opens_a_card_with_a_typo_and_shows_the_diagnostic(tmp_path: Path):
    nvim = shutil.which("nvim")
    _need(nvim is not None, "nvim (apt-get install neovim)")
    assert nvim is not None
    root = tmp_path / "content"
    shutil.copytree(CONTENT, root, ignore=shutil.ignore_patterns("scenarios"))
    card = root / "policies" / "stage1.yaml"
    text = card.read_text(encoding="utf-8")
    card.write_text(text.replace("      remove it", "      remvoe it", 1), encoding="utf-8")
    line = next(n for n, s in enumerate(card.read_text(encoding="utf-8").split("\n")) if "remvoe" in s)
    script = tmp_path / "drive.lua"
    script.write_text(_NVIM_SCRIPT, encoding="utf-8")
    out = tmp_path / "diagnostics.txt"
    env = {**os.environ, "RK_FILE": str(card), "RK_OUT": str(out), "RK_PYTHON": sys.executable,
           "RK_LUA": str(REPO / "editors" / "neovim"), "HOME": str(tmp_path), "XDG_STATE_HOME": str(tmp_path)}
    subprocess.run([nvim, "--headless", "-u", "NONE", "-i", "NONE", "-c", f"luafile {script}"], env=env,
                   capture_output=True, timeout=90, check=False, cwd=tmp_path)
    got = out.read_text(encoding="utf-8").splitlines()
    assert got and got[0].startswith(f"{line}:6:RK202:unknown verb 'remvoe' — did you mean 'remove'"), got

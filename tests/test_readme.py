"""The README's two commands are what a newcomer runs first: they must work exactly as written."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```sh\n(.*?)```", text, re.S)
    assert block, "README.md must open with a sh code block"
    return [line for line in block.group(1).splitlines() if line.strip() and not line.lstrip().startswith("#")]


def test_readme_opens_with_two_commands_install_and_play_then_install_and_test():
    first, second = readme_commands()
    assert first.startswith("pip install") and "rulekit playtest" in first
    assert second.startswith("pip install") and second.rstrip().endswith("pytest -q")


def test_ci_runs_the_readme_test_command_read_from_the_readme():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "README.md" in ci and "pytest" not in ci.replace("pytest -q", "").split("README.md")[0]


DESIGNER_CHECKS = ["rulekit lint content", "rulekit test content"]


def test_readme_says_what_a_designer_runs_after_editing_content_and_ci_runs_it_too():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = [b.splitlines() for b in re.findall(r"```sh\n(.*?)```", text, re.S)]
    assert [line.strip() for line in blocks[1]] == DESIGNER_CHECKS, "README's second sh block: the designer's checks"
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    after_tests = ci[ci.index('bash -euo pipefail -c "$cmd"'):]
    assert all(f'"{check}"' in after_tests for check in DESIGNER_CHECKS), "CI runs them after the tests"


def test_plain_pytest_collects_every_test_module():
    """`pytest` (not `python -m pytest`) does not put the repository on sys.path by itself."""
    exe = shutil.which("pytest", path=str(Path(sys.executable).parent)) or shutil.which("pytest")
    assert exe, "pytest is installed with the test extra"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([exe, "--collect-only", "-q", "-p", "no:cacheprovider"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "error" not in done.stdout.lower().splitlines()[-1]

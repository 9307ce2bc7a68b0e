"""The optional compiled build (mypyc) plays the same games as pure Python, which stays the oracle.

The build is made from this checkout into a temporary folder (once per state of the sources: it is kept under
the system's temp folder, keyed by a hash of what it is built from, and used again only if its own record
still matches). Each test runs rulekit in a fresh process on that tree, compiled or with RULEKIT_PURE=1.
Skipped only when mypyc is not installed (it comes with mypy, which the test extra installs).
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from rulekit import build_info

ROOT = Path(__file__).resolve().parent.parent
DECK = ROOT / "tests" / "fixtures" / "deck"

pytestmark = pytest.mark.skipif(importlib.util.find_spec("mypyc") is None,
                                reason="mypyc is not installed (pip install mypy; the test extra has it)")


def _key() -> str:
    import mypy.version

    h = hashlib.sha256(f"{sys.implementation.cache_tag} {mypy.version.__version__}".encode())
    for path in [*build_info.python_sources(ROOT / "rulekit"), ROOT / "setup.py"]:
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


@pytest.fixture(scope="module")
def tree() -> Path:
    """A copy of this checkout with the compiled modules built beside their sources."""
    final = Path(tempfile.gettempdir()) / f"rulekit-compiled-{_key()}"
    if final.is_dir() and build_info.inspect_build(final / "rulekit").mode == "compiled":
        return final
    shutil.rmtree(final, ignore_errors=True)          # a half-made or stale one
    work = Path(tempfile.mkdtemp(prefix="rulekit-compiling-"))
    build_info.build_tree(ROOT, work)
    try:
        os.replace(work, final)
    except OSError:                                   # another run put its build there first: use that one
        shutil.rmtree(work, ignore_errors=True)
    return final


def run(tree: Path, code: str, *args: str, pure: bool = False) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != build_info.PURE_ENV}
    env["PYTHONPATH"] = str(tree)
    if pure:
        env[build_info.PURE_ENV] = "1"
    return subprocess.run([sys.executable, "-c", code, *args], cwd=tree, env=env, capture_output=True, text=True,
                          check=False)


PLAY = """
import json, sys
from rulekit import build_info
from rulekit.content.loader import load_content
from rulekit.engine import run_game
print(build_info.guard().mode)
content = load_content(sys.argv[1])
for agents in (["random"], ["default"], ["greedy"], ["greedy", "random", "default", "random"]):
    for seed in range(int(sys.argv[2])):
        log = []
        result = run_game(content, seed, agents, log=log)
        print(json.dumps({"agents": agents, "seed": seed, "log": log, "result": repr(result)}, ensure_ascii=False,
                         sort_keys=True, default=repr))
"""


def test_the_compiled_build_plays_the_same_games_byte_for_byte(tree):
    compiled = run(tree, PLAY, str(DECK), "6")
    pure = run(tree, PLAY, str(DECK), "6", pure=True)
    assert compiled.returncode == 0, compiled.stderr
    assert pure.returncode == 0, pure.stderr
    mode_c, _, games_c = compiled.stdout.partition("\n")
    mode_p, _, games_p = pure.stdout.partition("\n")
    assert (mode_c, mode_p) == ("compiled", "disabled")
    assert len(games_c.splitlines()) == 24
    assert games_c == games_p


def test_version_names_the_build(tree):
    out = run(tree, "from rulekit.cli import main; main()", "--version")
    assert out.returncode == 0, out.stderr
    assert "compiled with mypyc" in out.stdout and "rulekit.core.game" in out.stdout
    pure = run(tree, "from rulekit.cli import main; main()", "--version", pure=True)
    assert "pure Python (RULEKIT_PURE=1" in pure.stdout


USES = """
import copy, json, pickle, sys, multiprocessing
import rulekit
from rulekit.core import game as G
from rulekit.content.loader import load_content
from rulekit.engine import make_game, new_game, run_game
from rulekit.agents.base import RandomAgent
assert not G.__file__.endswith(".py"), G.__file__          # the compiled game really runs
content = load_content(sys.argv[1])

class Cautious:                                             # a chooser a user writes
    name = "cautious"
    def choose(self, obs, q):
        return len(q.options) - 1

class Mine(RandomAgent):                                    # and one made from a built-in
    name = "mine"

def play(seed):
    return run_game(content, seed, ["random"])

g = new_game(content, 3, ["random"])
for _ in range(40):
    q = g.pending()
    g.answer(g.choosers[q.seat].choose(g.observation(q.seat), q))
out = {}
twin = g.clone(choosers=[RandomAgent(9, s) for s in range(g.state.players)])
twin.run()
out["clone"] = twin.winners()
saved = json.dumps(g.state.to_json())
again = rulekit.Game(g.program, g.rules, rulekit.GameState.from_json(json.loads(saved), content),
                     [RandomAgent(9, s) for s in range(g.state.players)])
again.run()
out["json"] = again.winners()
out["deepcopy_state"] = copy.deepcopy(g.state).to_json() == g.state.to_json()
user = make_game(content, 4, [Cautious(), Mine(4, 1), Cautious(), Mine(4, 3)])
user.run()
out["users"] = user.winners()
with multiprocessing.get_context("fork").Pool(2) as pool:    # results cross processes, as with --jobs
    out["jobs"] = [r.winners for r in pool.map(play, [1, 2])]
print(json.dumps(out, sort_keys=True))
"""


def test_documented_uses_work_the_same_compiled(tree):
    compiled = run(tree, USES, str(DECK))
    assert compiled.returncode == 0, compiled.stderr
    pure = run(tree, USES.replace('assert not G.__file__.endswith(".py")', "assert True"), str(DECK), pure=True)
    assert pure.returncode == 0, pure.stderr
    assert json.loads(compiled.stdout) == json.loads(pure.stdout)


def test_playtest_with_jobs_on_the_compiled_build(tree, tmp_path):
    cmd = "from rulekit.cli import main; main()"
    out = run(tree, cmd, "playtest", str(DECK), "--games", "6", "--jobs", "2", "--out", str(tmp_path / "c"), "--quiet")
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "c" / "report.html").is_file()


def test_an_edited_source_is_never_shadowed_by_its_stale_extension(tree, tmp_path):
    copy = tmp_path / "edited"
    shutil.copytree(tree, copy, ignore=shutil.ignore_patterns("build", "__pycache__"))
    board = copy / "rulekit" / "core" / "board.py"
    board.write_text(board.read_text(encoding="utf-8") + "\nEDITED = True\n", encoding="utf-8")
    out = run(copy, "import rulekit.core.board as b, rulekit.core.game as g; print(b.EDITED, g.__file__)")
    assert out.returncode == 0, out.stderr
    assert out.stdout.split()[0] == "True"                    # the edit is what runs ...
    assert out.stdout.split()[1].endswith("game.py")          # ... and no other module of the stale build
    assert "not using the compiled build" in out.stderr and "rulekit/core/board.py changed since it was compiled" \
        in out.stderr
    version = run(copy, "from rulekit.cli import main; main()", "--version")
    assert "pure Python (a compiled build is installed but stale" in version.stdout


def test_an_extension_without_the_build_record_is_not_used(tree, tmp_path):
    copy = tmp_path / "unrecorded"
    shutil.copytree(tree, copy, ignore=shutil.ignore_patterns("build", "__pycache__"))
    (copy / "rulekit" / build_info.MANIFEST).unlink()
    out = run(copy, "import rulekit.core.game as g; print(g.__file__)")
    assert out.stdout.strip().endswith("game.py")
    assert "is missing or unreadable" in out.stderr


def test_an_edit_to_a_module_the_compiled_code_relies_on_makes_the_build_stale(tree, tmp_path):
    copy = tmp_path / "edited"
    shutil.copytree(tree, copy, ignore=shutil.ignore_patterns("build", "__pycache__"))
    state = copy / "rulekit" / "core" / "state.py"            # interpreted, but game.py is compiled against it
    state.write_text(state.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    out = run(copy, "import rulekit.core.game as g; print(g.__file__)")
    assert out.stdout.strip().endswith("game.py")
    assert "rulekit/core/state.py changed since the build" in out.stderr

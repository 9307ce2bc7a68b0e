"""The optional compiled build. Metadata lives in pyproject.toml; this file only adds the mypyc extensions.

    pip install .                              pure Python (the default, and the oracle)
    RULEKIT_COMPILE=1 pip install .            the core, the effect runtime and the agents' hot paths compiled
    RULEKIT_COMPILE=1 pip install -e .         the same, the extensions built beside the sources

The compiled modules are listed in rulekit/build_info.py (COMPILED). With RULEKIT_COMPILE=1 the build asks its
frontend for mypy (mypyc ships with it), compiles those modules, and writes rulekit/_compiled.json: the sha256
of each source it compiled. At import, rulekit compares that record with the sources and runs pure Python,
saying so, if any changed (see rulekit/build_info.py).
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
MYPY = "mypy>=1.10"


def _build_info():
    # Read by path: importing the rulekit package here would run its build check on a half-built tree.
    spec = importlib.util.spec_from_file_location("_rulekit_build_info", HERE / "rulekit" / "build_info.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class BuildWithRecord(build_ext):
    """build_ext, then the record of what each extension was compiled from, beside the extensions."""

    def run(self) -> None:
        super().run()
        info = _build_info()
        extensions = {}
        for ext in self.extensions:
            name = ext.name.removesuffix(".__init__")       # mypyc names a package's extension after its __init__
            if name in info.COMPILED:
                extensions[name] = Path(self.get_ext_fullpath(ext.name))
        if not extensions:
            return
        package = Path(self.get_ext_fullpath("rulekit._compiled")).parent
        import mypy.version

        # The record goes where the extensions went (the build tree for a wheel, the sources for -e), but the
        # hashes are of the sources compiled, which are these.
        record = info.manifest_for(HERE / "rulekit", extensions, f"mypyc {mypy.version.__version__}")
        out = package / info.MANIFEST
        import json

        out.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(f"rulekit: compiled {len(extensions)} modules; record in {out}", file=sys.stderr)


# mypyc type-checks what it compiles and stops on any error. The project's own gate (pyproject's [tool.mypy],
# run by .ci/run) is stricter about annotations than compiling needs, and checks modules that are not
# compiled; so the build checks the compiled modules only, with errors in what they import silenced.
MYPYC_CONFIG = """\
[mypy]
python_version = 3.11
follow_imports = silent
disable_error_code = annotation-unchecked
"""


def _mypyc_config() -> str:
    out = HERE / "build" / "mypyc.ini"
    out.parent.mkdir(exist_ok=True)
    out.write_text(MYPYC_CONFIG, encoding="utf-8")
    return str(out)


def _extensions() -> tuple[list, list[str]]:
    if os.environ.get("RULEKIT_COMPILE", "") in ("", "0"):
        return [], []
    try:
        from mypyc.build import mypycify
    except ImportError:
        # The first pass of a PEP 517 build only asks what the build needs (egg_info with setup_requires
        # caught): mypy. pip installs it, then runs this file again, when the import succeeds.
        if "egg_info" in sys.argv or "dist_info" in sys.argv:
            return [], [MYPY]
        raise SystemExit(f"RULEKIT_COMPILE=1 needs mypyc, which comes with mypy: pip install '{MYPY}' (or build "
                         "with pip's build isolation, which installs it)") from None
    info = _build_info()
    paths = [str(p.relative_to(HERE)) for p in info.source_paths(HERE / "rulekit")]
    opt = os.environ.get("RULEKIT_COMPILE_OPT", "3")
    return mypycify(["--config-file", _mypyc_config(), *paths], opt_level=opt, debug_level="0", group_name=info.GROUP), [MYPY]


ext_modules, setup_requires = _extensions()
setup(ext_modules=ext_modules, setup_requires=setup_requires, cmdclass={"build_ext": BuildWithRecord})

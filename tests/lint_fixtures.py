"""Fixtures of the lint tests: imported by the modules that run lint with its cache."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True, scope="module")
def private_lint_cache(tmp_path_factory):
    """The lint cache in a folder of the tests, never the user's own (~/.cache)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("xdg-cache")))
        mp.delenv("RULEKIT_CACHE_DIR", raising=False)
        yield

"""Shared fixtures: the tests' whole game (tests/fixtures/deck, never the shipped content/), loaded once."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# A frozen copy of the shipped cards: the designer rewrites content/, and no test may notice.
CONTENT = ROOT / "tests" / "fixtures" / "deck"


@pytest.fixture(scope="session")
def content():
    from rulekit.content.loader import load_content

    return load_content(CONTENT)


ENGINE_CONTENT = ROOT / "tests" / "fixtures" / "engine"


@pytest.fixture(scope="session")
def engine_content():
    """Synthetic cards for engine unit tests (tests/fixtures/engine): shipped cards can change freely."""
    from rulekit.content.loader import load_content

    return load_content(ENGINE_CONTENT)


def pytest_collection_finish(session):
    """Start the designer's edited copy (tests/test_designer_edits.py) now, so that it runs beside the suite."""
    from tests import designer_copy

    if not session.config.option.collectonly:
        designer_copy.start_if_collected({item.nodeid for item in session.items})


def pytest_sessionfinish(session, exitstatus):
    from tests import designer_copy

    designer_copy.stop()

"""What the hostile-content tests share: a copy of the engine fixture to spoil, the CLI, the load's errors."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulekit.cli import main
from rulekit.content.loader import load_content
from rulekit.language.diagnostics import ContentError
from tests.conftest import ENGINE_CONTENT


@pytest.fixture
def content(tmp_path) -> Path:
    """A copy of tests/fixtures/engine that a test may spoil."""
    root = tmp_path / "content"
    shutil.copytree(ENGINE_CONTENT, root)
    return root


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def errors(root) -> list:
    """The errors that keep a content folder from loading."""
    with pytest.raises(ContentError) as err:
        load_content(root)
    return [d for d in err.value.diagnostics if d.severity == "error"]

"""One command-line convention for every command: --content, help in both languages, seeds 0 or more,
and output that a legacy console cannot break."""

from __future__ import annotations

import re

import click
import pytest
from click.testing import CliRunner

from rulekit.cli import main
from tests.conftest import CONTENT

CJK = re.compile(r"[\u4e00-\u9fff]")
LATIN = re.compile(r"[A-Za-z]{3,}")
# `replay` belongs to the replay work; its help follows the same convention when that work lands.
COMMANDS = ["lint", "rule", "test", "play", "playtest", "replay", "compare"]


def run(*args, runner: CliRunner | None = None):
    return (runner or CliRunner()).invoke(main, list(map(str, args)), catch_exceptions=False)


def _bilingual(text: str | None) -> bool:
    return bool(text) and bool(CJK.search(text)) and bool(LATIN.search(text))


@pytest.mark.parametrize("name", [None, *COMMANDS])
def test_every_command_and_option_has_help_in_both_languages(name):
    command = main if name is None else main.commands[name]
    ctx = click.Context(command, info_name=name or "rulekit")
    assert _bilingual(command.help), f"{name}: its help"
    missing = [p.opts[0] for p in command.get_params(ctx) if isinstance(p, click.Option) and not _bilingual(p.help)]
    assert missing == [], f"{name}: options without help in both languages"


def test_playtest_takes_the_content_folder_as_an_option_or_an_argument(tmp_path):
    a = run("playtest", "--content", CONTENT, "--games", 2, "--out", tmp_path / "a", "--quiet")
    b = run("playtest", CONTENT, "--games", 2, "--out", tmp_path / "b", "--quiet")
    assert a.exit_code == 0 and b.exit_code == 0, a.output + b.output
    assert (tmp_path / "a" / "summary.json").read_bytes() == (tmp_path / "b" / "summary.json").read_bytes()
    both = run("playtest", tmp_path, "--content", CONTENT, "--out", tmp_path / "c", "--quiet")
    assert both.exit_code == 2 and "give it once" in both.output


def test_lint_takes_the_content_folder_as_an_option():
    by_option = run("lint", "--content", CONTENT, "--output-format", "concise")
    by_argument = run("lint", CONTENT, "--output-format", "concise")
    assert by_option.exit_code == by_argument.exit_code
    assert by_option.output == by_argument.output


@pytest.mark.parametrize("command", ["play", "playtest"])
def test_a_negative_seed_is_refused_with_a_plain_message(command, tmp_path):
    r = run(command, "--seed", -5, "--out" if command == "playtest" else "--players",
            tmp_path if command == "playtest" else 4)
    assert r.exit_code == 2
    assert "a seed is a whole number from 0 to 999,999,999,999,999 (got '-5')" in r.output


def test_a_latin1_console_gets_replacement_characters_not_a_traceback(tmp_path):
    legacy = CliRunner(charset="latin-1")
    r = run("play", "--content", CONTENT, "--seed", 2, runner=legacy)
    assert r.exit_code == 0
    assert "?? The Plague Arrives" in r.output
    r = run("playtest", CONTENT, "--games", 2, "--out", tmp_path, "--quiet", runner=legacy)
    assert r.exit_code == 0 and "report" in r.output

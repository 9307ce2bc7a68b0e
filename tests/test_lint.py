"""`rulekit lint`: real cards broken in many ways, each problem at its exact file:line:col in every format."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulekit.cli import main
from rulekit.language.diagnostics import Diagnostic
from rulekit.lint import render
from rulekit.lint.render import display_width
from tests.conftest import CONTENT
from tests.lint_fixtures import private_lint_cache  # noqa: F401 — autouse: the cache away from ~/.cache


# (file, text to replace, replacement) applied once each to a copy of the tests' deck.
BREAKS = [
    ("policies/stage1.yaml", "      medical += 1\n", "      medicl += 1\n"),           # typo in a track
    ("policies/stage2.yaml", "      remove 1 resident", "      cure 1 resident"),        # wrong kind for a verb
    ("advisors/advisors.yaml", "    on setup:\n      money += 5\n",
     "    on setup:\n      money += 5\n     policy += 1\n"),                               # bad indentation
    ("policies/stage3.yaml", "  stage: 3\n", "  stage 3\n"),                             # missing colon (YAML)
    ("events/events.yaml", "    on resolve:\n", "    on resolve\n"),                     # missing colon (effect)
    ("combos/combos.yaml", 'happened("游行示威")', 'happened("游行示众")'),                 # unknown card
    ("policies/stage1.yaml", "  price: 1\n", "  pirce: 1\n"),                            # schema typo
    ("policies/stage2.yaml", 'or event("阴谋论")', 'or evnt("阴谋论")'),                   # after wide characters
]

# (file, code, text of the line, token the column points at, words of the message)
EXPECTED = [
    ("policies/stage1.yaml", "RK201", "      medicl += 1", "medicl", "unknown track 'medicl' — did you mean 'medical'"),
    ("policies/stage2.yaml", "RK217", "      cure 1 resident", "resident", "`cure` cannot take 'resident'"),
    ("advisors/advisors.yaml", "RK102", "     policy += 1", "policy", "indentation does not match any block"),
    ("policies/stage3.yaml", "RK001", "  stage 3", "stage", "is a ':' missing?"),
    ("events/events.yaml", "RK101", "    on resolve", "", "expected ':' at the end of this line"),
    ("combos/combos.yaml", "RK224", 'happened("游行示众")', '"游行示众"',
     "there is no event '游行示众' — did you mean '游行示威'?"),
    ("policies/stage1.yaml", "RK011", "  pirce: 1", "pirce",
     "unknown field 'pirce' in a policy — did you mean 'price'?"),
    ("policies/stage2.yaml", "RK210", 'or evnt("阴谋论")', "evnt", "unknown function 'evnt'"),
]


def run(*args: str):
    result = CliRunner().invoke(main, ["lint", *args])
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit), result.output
    return result


@pytest.fixture(scope="module")
def broken(tmp_path_factory) -> Path:
    """A copy of the tests' deck broken in every way of BREAKS, in a folder of its own."""
    top = tmp_path_factory.mktemp("broken")
    shutil.copytree(CONTENT, top / "content", ignore=shutil.ignore_patterns(".rulekit_cache"))
    for rel, old, new in BREAKS:
        p = top / "content" / rel
        text = p.read_text(encoding="utf-8")
        assert old in text, (rel, old)
        p.write_text(text.replace(old, new, 1), encoding="utf-8")
    return top


def where(top: Path, rel: str, line_text: str, token: str) -> tuple[int, int, str]:
    """The 1-based line and column of `token` on the first line containing `line_text`."""
    lines = (top / "content" / rel).read_text(encoding="utf-8").split("\n")
    for n, line in enumerate(lines, 1):
        if line_text in line:
            start = line.index(line_text)
            return n, (start + line.index(token, start) - start + 1) if token else len(line) + 1, line
    raise AssertionError(f"{line_text!r} not in {rel}")


def expected(top: Path):
    for rel, code, line_text, token, words in EXPECTED:
        line, col, source = where(top, rel, line_text, token)
        yield f"content/{rel}", code, line, col, source, words


# ---- every broken card, every format -------------------------------------------------------

def test_concise_gives_file_line_col_code_and_message(broken, monkeypatch):
    monkeypatch.chdir(broken)
    result = run("content", "--output-format", "concise")
    assert result.exit_code == 1
    lines = result.output.splitlines()
    for file, code, line, col, _, words in expected(broken):
        head = f"{file}:{line}:{col}: {code} "
        found = [ln for ln in lines if ln.startswith(head)]
        assert found, f"no {head!r} in:\n{result.output}"
        assert words in found[0]


def test_full_shows_the_source_line_and_a_caret_under_the_column(broken, monkeypatch):
    monkeypatch.chdir(broken)
    result = run("content")           # full is the default
    lines = result.output.splitlines()
    assert "\x1b[" not in result.output, "colour only on a terminal"
    for file, code, line, col, source, words in expected(broken):
        i = next(i for i, ln in enumerate(lines) if ln.startswith(f"{file}:{line}:{col}: {code} "))
        assert words in lines[i]
        gutter = " " * len(str(line))
        assert lines[i + 1] == f"{gutter} |"
        assert lines[i + 2] == f"{line} | {source}".rstrip()
        caret = lines[i + 3]
        assert caret.startswith(f"{gutter} | ")
        marks = caret[len(gutter) + 3:]
        assert marks.lstrip(" ").startswith("^")
        assert len(marks) - len(marks.lstrip(" ")) == display_width(source[:col - 1]), (code, caret)


def test_the_caret_counts_east_asian_wide_characters_as_two(broken, monkeypatch):
    monkeypatch.chdir(broken)
    out = run("content", "--select", "RK224").output.splitlines()
    i = next(i for i, ln in enumerate(out) if "游行示众" in ln and "RK224" in ln)
    source, caret = out[i + 2], out[i + 3]
    # 4 wide characters before the column: the caret sits 4 columns further right than the
    # character count, and the quoted name (2 + 4 wide characters) is 10 carets wide.
    text = source.split(" | ", 1)[1]
    col = int(out[i].split(":")[2])
    assert text[col - 1:col + 5] == '"游行示众"'
    marks = caret.split(" | ", 1)[1]
    assert len(marks) - len(marks.lstrip()) == col - 1 + 4
    assert marks.strip() == "^" * 10


def test_full_prints_the_hint_as_help(broken, monkeypatch):
    monkeypatch.chdir(broken)
    out = run("content", "--select", "RK011").output
    assert "= help: fields: " in out


def test_json_has_every_field_at_the_exact_position(broken, monkeypatch):
    monkeypatch.chdir(broken)
    result = run("content", "--output-format", "json")
    data = json.loads(result.output)                 # nothing but the JSON: no summary line
    assert result.exit_code == 1
    for item in data:
        assert set(item) >= {"file", "line", "column", "end_line", "end_column", "code", "severity", "message"}
    for file, code, line, col, _, words in expected(broken):
        hits = [d for d in data if d["file"] == file and d["code"] == code]
        assert hits and (hits[0]["line"], hits[0]["column"]) == (line, col)
        assert words in hits[0]["message"] and hits[0]["severity"] == "error"
        assert (hits[0]["end_line"], hits[0]["end_column"]) >= (line, col + 1)


def test_sarif_is_a_valid_log_with_each_result_at_its_region(broken, monkeypatch):
    import jsonschema

    monkeypatch.chdir(broken)
    log = json.loads(run("content", "--output-format", "sarif").output)
    jsonschema.validate(log, SARIF_SHAPE)
    driver = log["runs"][0]["tool"]["driver"]
    ids = [r["id"] for r in driver["rules"]]
    assert len(ids) == len(set(ids)) and "RK201" in ids
    assert all("helpUri" not in r for r in driver["rules"])
    results = log["runs"][0]["results"]
    for r in results:
        assert driver["rules"][r["ruleIndex"]]["id"] == r["ruleId"]
    for file, code, line, col, _, words in expected(broken):
        hits = [r for r in results if r["ruleId"] == code
                and r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == _uri(file)]
        assert hits, (file, code)
        region = hits[0]["locations"][0]["physicalLocation"]["region"]
        assert (region["startLine"], region["startColumn"]) == (line, col)
        assert hits[0]["level"] == "error" and words in hits[0]["message"]["text"]
    assert {r["level"] for r in results} <= {"error", "warning", "note"}
    assert any(r["level"] == "note" for r in results)      # the proposed-cards count


def _uri(file: str) -> str:
    from urllib.parse import quote
    return quote(file)


_TEXT = {"type": "object", "required": ["text"], "properties": {"text": {"type": "string", "minLength": 1}}}
_LEVEL = {"enum": ["error", "warning", "note"]}
_POSITIVE = {"type": "integer", "minimum": 1}
_REGION = {"type": "object", "required": ["startLine", "startColumn"],
           "properties": {k: _POSITIVE for k in ("startLine", "startColumn", "endLine", "endColumn")}}
_LOCATION = {"type": "object", "required": ["physicalLocation"], "properties": {"physicalLocation": {
    "type": "object", "required": ["artifactLocation"],
    "properties": {"artifactLocation": {"type": "object", "required": ["uri"]}, "region": _REGION}}}}
_RESULT = {"type": "object", "required": ["ruleId", "level", "message", "locations"], "properties": {
    "ruleId": {"type": "string"}, "ruleIndex": {"type": "integer", "minimum": 0}, "level": _LEVEL,
    "message": _TEXT, "locations": {"type": "array", "minItems": 1, "items": _LOCATION}}}
_RULE = {"type": "object", "required": ["id", "shortDescription", "fullDescription"], "properties": {
    "id": {"type": "string", "pattern": "^RK[0-9]{3}$"}, "shortDescription": _TEXT, "fullDescription": _TEXT,
    "defaultConfiguration": {"type": "object", "properties": {"level": _LEVEL}}}}
_DRIVER = {"type": "object", "required": ["name", "rules"],
           "properties": {"name": {"const": "rulekit"}, "rules": {"type": "array", "items": _RULE}}}
_RUN = {"type": "object", "required": ["tool", "results"], "properties": {
    "columnKind": {"enum": ["utf16CodeUnits", "unicodeCodePoints"]},
    "tool": {"type": "object", "required": ["driver"], "properties": {"driver": _DRIVER}},
    "results": {"type": "array", "items": _RESULT}}}
# The parts of the SARIF 2.1.0 schema that code-scanning services insist on.
SARIF_SHAPE = {"type": "object", "required": ["$schema", "version", "runs"], "properties": {
    "version": {"const": "2.1.0"}, "$schema": {"type": "string", "pattern": "sarif-2\\.1\\.0"},
    "runs": {"type": "array", "minItems": 1, "maxItems": 1, "items": _RUN}}}


def test_github_annotations_point_at_file_line_and_column(broken, monkeypatch):
    monkeypatch.chdir(broken)
    out = run("content", "--output-format", "github").output.splitlines()
    for file, code, line, col, _, words in expected(broken):
        prefix = f"::error file={file},line={line},col={col},endLine="
        hits = [ln for ln in out if ln.startswith(prefix) and f",title={code}::" in ln]
        assert hits, prefix
        assert words.replace("%", "%25") in hits[0]
    assert any(ln.startswith("::notice ") for ln in out)
    assert re.fullmatch(r"\d+ errors?, \d+ warnings? in 7 files, 1 note", out[-1])


def test_github_escaping_follows_the_workflow_command_rules():
    d = Diagnostic("RK201", "warning", "100% sure, really: yes", "a,b:c.yaml", 3, 4, 3, 9, hint="50%")
    assert render.github_line(d) == ("::warning file=a%2Cb%3Ac.yaml,line=3,col=4,endLine=3,endColumn=9,title=RK201::"
                                     "100%25 sure, really: yes%0Ahelp: 50%25")


def test_control_characters_from_a_broken_file_are_shown_not_sent_to_the_terminal():
    d = Diagnostic("RK101", "error", "unexpected character '\x1b'\n", "f.yaml", 1, 1, 1, 2, hint="\u200b")
    for text in (render.concise_line(d), render.github_line(d),
                 *("".join(t for t, _ in seg) for seg in render.full_lines(d, lambda f: ["\x1b[31m"]))):
        assert "\x1b" not in text and "\n" not in text and "\u200b" not in text
    assert render.concise_line(d) == "f.yaml:1:1: RK101 unexpected character 'U+001B'U+000A"


# ---- the closing line ------------------------------------------------------------------------------

def test_summary_counts_errors_warnings_files_and_notes(broken, monkeypatch):
    monkeypatch.chdir(broken)
    out = run("content", "--output-format", "concise").output.splitlines()
    assert re.fullmatch(r"\d+ errors, \d+ warnings? in 7 files, 1 note", out[-1]), out[-1]
    assert render.summary([], 1) == "0 errors, 0 warnings in 1 file"
    one = [Diagnostic("RK201", "error", "m"), Diagnostic("RK219", "warning", "m"), Diagnostic("RK305", "info", "m"),
           Diagnostic("RK306", "info", "m")]
    assert render.summary(one, 2) == "1 error, 1 warning in 2 files, 2 notes"


def test_a_clean_deck_passes_and_notes_do_not_fail(tmp_path, monkeypatch):
    shutil.copytree(CONTENT, tmp_path / "content")
    monkeypatch.chdir(tmp_path)
    result = run("--no-cache")                  # default path: content/
    assert result.exit_code == 0, result.output
    assert "proposed cards await the designer's decision" in result.output
    assert re.search(r"^0 errors, 0 warnings in \d+ files, \d+ notes?$", result.output, re.M)


# ---- exit status -------------------------------------------------------------------------------------

def test_exit_status_1_for_problems_0_with_exit_zero(broken, monkeypatch):
    monkeypatch.chdir(broken)
    assert run("content").exit_code == 1
    assert run("content", "--exit-zero").exit_code == 0
    assert run("content", "--select", "RK305").exit_code == 0          # info alone is clean


def test_warnings_alone_exit_1(tmp_path):
    p = tmp_path / "content" / "policies" / "a.yaml"
    p.parent.mkdir(parents=True)
    (tmp_path / "content" / "rules.yaml").write_text("players: 4\n")
    p.write_text("")                     # RK004 empty file, small stages (RK304), no advisors (RK307): warnings
    result = run(str(tmp_path / "content"), "--no-cache", "--output-format", "concise")
    assert result.exit_code == 1
    assert "0 errors, 5 warnings in 2 files" in result.output


def test_usage_errors_exit_2(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run()                                            # no content/ here
    assert result.exit_code == 2 and "no content/ folder here" in result.output
    assert run("missing-folder").exit_code == 2
    assert run(".", "--output-format", "xml").exit_code == 2


def test_an_internal_error_is_one_clear_line_and_exit_2(broken, monkeypatch):
    from rulekit.lint import engine

    def boom(*args, **kwargs):
        raise KeyError("the unexpected")

    monkeypatch.chdir(broken)
    monkeypatch.setattr(engine, "check", boom)
    result = CliRunner().invoke(main, ["lint", "content"])
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    lines = [ln for ln in result.output.splitlines() if ln]
    assert len(lines) == 1 and "internal error" in lines[0] and "not in your cards" in lines[0]


# ---- paths -------------------------------------------------------------------------------------------

def test_a_single_file_or_kind_folder_shows_only_its_problems(broken, monkeypatch):
    monkeypatch.chdir(broken)
    one = run("content/policies/stage1.yaml", "--output-format", "concise").output.splitlines()
    assert {ln.split(":")[0] for ln in one[:-1]} == {"content/policies/stage1.yaml"}
    assert one[-1].endswith("in 1 file")
    kind = run("content/combos", "--output-format", "concise").output.splitlines()
    assert {ln.split(":")[0] for ln in kind[:-1]} == {"content/combos/combos.yaml"}


def test_rules_yaml_is_checked_too(tmp_path):
    shutil.copytree(CONTENT, tmp_path / "content", ignore=shutil.ignore_patterns(".rulekit_cache"))
    rules = tmp_path / "content" / "rules.yaml"
    text = rules.read_text(encoding="utf-8")
    rules.write_text(text.replace("players: 4", "players: four", 1), encoding="utf-8")
    line = next(n for n, ln in enumerate(text.split("\n"), 1) if ln.startswith("players: 4"))
    out = run(str(tmp_path / "content"), "--no-cache", "--output-format", "concise").output
    assert f"rules.yaml:{line}:10: RK010 " in out


# ---- --select, --ignore, noqa --------------------------------------------------------------------------

def codes(result) -> set[str]:
    return {d["code"] for d in json.loads(result.output)}


def test_select_and_ignore_take_codes_and_prefixes(broken, monkeypatch):
    monkeypatch.chdir(broken)
    every = codes(run("content", "--output-format", "json"))
    assert {"RK001", "RK011", "RK101", "RK201", "RK224", "RK305"} <= every
    assert codes(run("content", "--output-format", "json", "--select", "RK2")) == {c for c in every if c[:3] == "RK2"}
    assert codes(run("content", "--output-format", "json", "--select", "RK201,rk011")) == {"RK201", "RK011"}
    assert codes(run("content", "--output-format", "json", "--select", "RK201", "--select", "RK1")) == \
        {"RK201"} | {c for c in every if c[:3] == "RK1"}
    assert codes(run("content", "--output-format", "json", "--ignore", "RK2,RK3")) == \
        {c for c in every if c[:3] not in ("RK2", "RK3")}
    # the more specific selector wins, as in ruff
    assert codes(run("content", "--output-format", "json", "--ignore", "RK2", "--select", "RK201")) == {"RK201"}
    assert "RK201" not in codes(run("content", "--output-format", "json", "--select", "RK2", "--ignore", "RK201"))


def test_an_unknown_selector_is_a_usage_error_with_a_suggestion(broken, monkeypatch):
    monkeypatch.chdir(broken)
    result = run("content", "--select", "RK2O1")
    assert result.exit_code == 2 and "did you mean 'RK201'?" in result.output


NOQA_CARD = """\
- id: field_hospital
  name: 野战医院
  stage: 2
  price: "3"{yaml}
  effect: |
    on play:
      medicl += 1{effect}
      kill 1 dead
"""


@pytest.mark.parametrize("yaml_comment, effect_comment, silenced", [
    ("", "", set()),
    ("  # rulekit: noqa: RK010", "", {"RK010"}),
    ("", "  # rulekit: noqa: RK201", {"RK201"}),
    ("", "  # rulekit: noqa: RK217", set()),                  # another code: nothing silenced
    ("", "  # rulekit: noqa: RK201, RK217", {"RK201"}),       # RK217 is on the next line
    ("  # rulekit: noqa", "  # rulekit: noqa", {"RK010", "RK201"}),
    ("  #rulekit:noqa:rk010", "", {"RK010"}),
])
def test_noqa_silences_codes_on_its_own_line(tmp_path, yaml_comment, effect_comment, silenced):
    p = tmp_path / "content" / "policies" / "a.yaml"
    p.parent.mkdir(parents=True)
    (tmp_path / "content" / "rules.yaml").write_text("players: 4\n")
    p.write_text(NOQA_CARD.format(yaml=yaml_comment, effect=effect_comment), encoding="utf-8")
    found = codes(run(str(tmp_path / "content"), "--no-cache", "--output-format", "json", "--select", "RK0,RK2"))
    assert found == {"RK010", "RK201", "RK217"} - silenced


# ---- rendering details ----------------------------------------------------------------------------------

def test_display_width_and_excerpts_of_awkward_lines():
    assert display_width("医院ab") == 6
    assert display_width("\t") == render.TAB_WIDTH
    d = Diagnostic("RK101", "error", "m", "f.yaml", 1, 3, 1, 4)
    lines = ["\tx\x00中y"]
    out = ["".join(t for t, _ in seg) for seg in render.full_lines(d, lambda f: lines)]
    assert out[2] == "1 |     x?中y"
    assert out[3] == "  |      ^"
    long = "x" * 5000 + "BAD" + "y" * 5000
    d = Diagnostic("RK101", "error", "m", "f.yaml", 1, 5001, 1, 5004)
    out = ["".join(t for t, _ in seg) for seg in render.full_lines(d, lambda f: [long])]
    shown, caret = out[2][4:], out[3][4:]
    assert len(shown) <= render.MAX_SHOWN_WIDTH + 6
    assert shown[len(caret) - 3:len(caret)] == "BAD" and caret.endswith("^^^")


def test_colour_only_on_a_terminal(broken, monkeypatch):
    from rulekit.lint import command

    monkeypatch.chdir(broken)
    monkeypatch.setattr(command, "_stdout_is_terminal", lambda: True)
    out = run("content", "--select", "RK201").output
    assert "\x1b[" in out and "medicl" in out


# ---- rulekit rule -----------------------------------------------------------------------------------------

def test_rule_prints_the_four_sections():
    result = CliRunner().invoke(main, ["rule", "RK101"])
    assert result.exit_code == 0
    out = result.output
    for section in ("What it does", "Why it matters", "Example", "How to fix"):
        assert f"## {section}" in out
    assert out.index("What it does") < out.index("Why it matters") < out.index("Example") < out.index("How to fix")
    assert CliRunner().invoke(main, ["rule", "rk101"]).output == out


def test_rule_without_a_code_lists_every_code():
    from rulekit.lint.rules import RULES

    out = CliRunner().invoke(main, ["rule"]).output.splitlines()
    assert [ln.split()[0] for ln in out] == list(RULES)


def test_an_unknown_rule_gets_a_did_you_mean():
    result = CliRunner().invoke(main, ["rule", "RK2O1"])
    assert result.exit_code == 2 and "did you mean 'RK201'?" in result.output

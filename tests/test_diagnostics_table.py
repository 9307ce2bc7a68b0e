"""The table of rules (rulekit/diagnostics/codes.py) is the one truth about diagnostic codes: every code a
module reports has a rule, every rule is reported where the table says, and severity and title come
from the table alone."""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

import pytest

import rulekit
from rulekit.diagnostics.codes import CAUSES, CODES, SEVERITIES, R, rule
from rulekit.diagnostics.texts import DOCS
from rulekit.language.diagnostics import Diagnostic

PACKAGE = Path(rulekit.__file__).parent
CODE = re.compile(r"(RK|SC)\d{3}")
# Modules that read codes without reporting them: the table itself, and lint (which filters, renders
# and documents what the others report).
READERS = ("diagnostics", "lint")


def _module(p: Path) -> str:
    return ".".join(p.relative_to(PACKAGE.parent).with_suffix("").parts)


def _old_table_keys(tree: ast.Module) -> set[int]:
    """The keys of a module's old `CODES = {code: (severity, title)}` table (checker.py, until the
    codemod replaces it with the table's view): they name every code, and report none."""
    keys: set[int] = set()
    for node in tree.body:
        target = node.targets[0] if isinstance(node, ast.Assign) else node.target if isinstance(node, ast.AnnAssign) else None
        if isinstance(target, ast.Name) and target.id == "CODES" and isinstance(node.value, ast.Dict):
            keys |= {id(k) for k in node.value.keys}
    return keys


def reported() -> dict[str, dict[str, list[str]]]:
    """code -> module -> where it names the code: `R.NAME`, or a string literal "RK223" (modules not yet
    converted); a name R has not is reported under the code 'R.NAME'."""
    found: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for p in sorted(PACKAGE.rglob("*.py")):
        if p.relative_to(PACKAGE).parts[0] in READERS:
            continue
        tree = ast.parse(p.read_text(encoding="utf-8"))
        skip = _old_table_keys(tree)
        for node in ast.walk(tree):
            where = f"{p.relative_to(PACKAGE.parent)}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "R":
                code = R[node.attr].code if node.attr in R.__members__ else f"R.{node.attr}"
                found[code][_module(p)].append(where)
            elif (isinstance(node, ast.Constant) and isinstance(node.value, str) and CODE.fullmatch(node.value)
                  and id(node) not in skip):
                found[node.value][_module(p)].append(where)
    return found


def test_every_code_a_module_reports_has_a_rule():
    unknown = {code: dict(at) for code, at in reported().items() if code not in CODES}
    assert not unknown, f"codes with no rule in rulekit/diagnostics/codes.py: {unknown}"


def test_every_rule_is_reported_by_exactly_the_modules_the_table_names():
    found = reported()
    wrong = {}
    for r in R:
        modules = sorted(found.get(r.code, {}))
        if modules != sorted(r.location):
            wrong[r.name] = f"the table says {sorted(r.location)}, the code reports it in {modules}"
    assert not wrong, f"fix `location` in rulekit/diagnostics/codes.py (or the check): {wrong}"


def test_every_lint_code_has_its_documentation_and_only_those():
    assert sorted(DOCS) == sorted(r for r in R if r.code.startswith("RK"))


def test_the_rows_are_well_formed():
    assert len({r.slug for r in R}) == len(R)
    for r in R:
        assert CODE.fullmatch(r.code) and r.severity in SEVERITIES and r.summary.strip(), r
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", r.slug), r
        assert r.location and all(m.startswith("rulekit.") for m in r.location), r
        assert (PACKAGE.parent / (r.location[0].replace(".", "/") + ".py")).is_file(), r


def test_the_codes_are_in_code_order():
    codes = [r.code for r in R]
    assert codes == sorted(codes, key=lambda c: (c[:2] != "RK", c))


def test_a_diagnostic_takes_its_code_and_severity_from_its_rule():
    d = Diagnostic.of(R.DIVISION_BY_MAYBE_ZERO, "dividing by dead, which can be 0", "policies/x.yaml", 5, 11)
    assert (d.code, d.severity, type(d.code)) == ("RK236", "warning", str)
    assert Diagnostic.of("RK236", "the same, by its code", "x.yaml").severity == "warning"


def test_a_code_no_rule_has_is_refused_with_a_plain_message():
    with pytest.raises(ValueError, match="no rule has the code 'RK999'"):
        Diagnostic.of("RK999", "a check that invented a code")
    with pytest.raises(ValueError):
        rule("rk223")


def test_problems_of_files_as_such_come_first():
    assert {*(r.code for r in R if r.code.startswith("RK00")), "RK016", "RK017"} == CAUSES
    later = Diagnostic.of(R.UNKNOWN_TRACK, "unknown track", "a.yaml", 1, 1)
    cause = Diagnostic.of(R.LINK_OUTSIDE, "a link leads outside", "z.yaml")
    assert sorted([later, cause], key=Diagnostic.sort_key) == [cause, later]


def test_the_checker_table_while_it_is_there_is_the_tables_view():
    """checker.py's CODES is replaced by the table's view (diag-codemod); until then it must agree."""
    from rulekit.language import checker

    assert {c for c in CODES if c.startswith("RK")} <= set(checker.CODES)
    assert all(CODES[code] == row for code, row in checker.CODES.items())

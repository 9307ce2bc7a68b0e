"""The language server's answers, in process (rulekit.lsp.project and rulekit.lsp.features): they agree with
`rulekit lint`, explain every registry word with an example that really checks, and never fail on a
half-typed file."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest
from lsprotocol import types as T

from rulekit import registry
from rulekit.content.loader import card_file_facts
from rulekit.lint.rules import RULES
from rulekit.lint.run import lint
from rulekit.lsp import features as F
from rulekit.lsp import text as X
from rulekit.lsp import vocab
from rulekit.lsp.project import Project
from tests.conftest import CONTENT

# The shipped cards, whose every prefix the server must answer (whatever the designer writes in them: this
# test asserts only that each prefix is answered, so it holds for any content); every other test here
# runs on the tests' deck.
SHIPPED = Path(__file__).resolve().parents[1] / "content"
CARD_FILES = sorted(p for p in SHIPPED.rglob("*.yaml") if "scenarios" not in p.relative_to(SHIPPED).parts)
# Every prefix of every shipped file would be ~35,000 checks (minutes on CI); every 23rd character, and
# every line's end, covers each construct half-typed (a key without its value, an open quote, a handler
# without its colon, a block cut mid-statement) in a few seconds.
STRIDE = 23
BROKEN = [
    "- id: x\n  effect: |\n    on play\n      money += \n",
    "- id: [\n",
    "- id: a\n  name: \"unclosed\n  effect: |\n",
    "- id: a\n  effect: |\n    when reveal mild:\n    remove it\n",
    "  - - - :\n\t\tid: x\n",
    "- id: a\n  name: 甲\n  effect: |\n    on play:\n      cure (((((1 mild\n",
    "- id: a\n  when: played(\"\n  effect: |\n    on resolve:\n",
    "effect: |\n  on play:\n    money += 1\n",
    "- id: a\n  name: 甲\n  stage: 9\n  price: -1\n  effect: |\n    react income start:\n      money += \"x\"\n",
    "\ufeff- id: a\n  effect: >-\n    on play: money += 1 # rulekit: noqa: RK\n",
    "- id: a\n  effect: |\n    on play:\n      money += 1\n  effect: |\n    on play:\n",
    "- id: 😀\n  name: 😀😀\n  effect: |\n    on play:\n      played(\"😀\n",
]


def _folder(tmp_path: Path) -> Path:
    root = tmp_path / "content"
    shutil.copytree(CONTENT, root, ignore=shutil.ignore_patterns("scenarios"))
    return root


def _key(d) -> tuple:
    return (d.code, Path(d.file).name if d.file else "", d.line, d.col, d.message)


def test_the_server_and_lint_report_the_same_on_every_rules_example(tmp_path: Path):
    """Each rule's example, dropped into a copy of the content: the server's diagnostics are lint's, noqa included."""
    seen = 0
    for rule in RULES.values():
        if rule.path is None or rule.encoding != "utf-8" or not rule.path.endswith((".yaml", ".yml")):
            continue
        root = _folder(tmp_path / rule.code)
        target = root / rule.path
        target.parent.mkdir(parents=True, exist_ok=True)
        for other, body in rule.context:
            (root / other).parent.mkdir(parents=True, exist_ok=True)
            (root / other).write_text(body, encoding="utf-8")
        example = textwrap.dedent(rule.example).lstrip("\n").encode("utf-8")
        target.write_bytes(example)
        by_file = Project(root.absolute()).check({target.absolute(): example})
        server = sorted(_key(d) for ds in by_file.values() for d in ds)
        linted = sorted(_key(d) for d in lint([root.absolute()], use_cache=False).diagnostics)
        assert server == linted, rule.code
        seen += rule.code in {d[0] for d in server}
    assert seen > 40          # the examples really raise their codes here


def test_the_decks_notes_are_lints():
    by_file = Project(CONTENT.absolute()).check({})
    server = sorted(_key(d) for ds in by_file.values() for d in ds)
    assert server and server == sorted(_key(d) for d in lint([CONTENT], use_cache=False).diagnostics)
    assert all(d.severity == "info" for ds in by_file.values() for d in ds)


def test_a_change_rechecks_the_changed_file_only_and_keeps_cross_file_messages_fresh(tmp_path: Path):
    root = _folder(tmp_path).absolute()
    project = Project(root)
    project.check({})
    kept = {p: v[2] for p, v in project.kept.items()}
    stage2 = root / "policies" / "stage2.yaml"
    renamed = stage2.read_bytes().replace("name: 公共墓园".encode(), "name: 公共墓地".encode(), 1)
    by_file = project.check({stage2: renamed})
    assert [p for p, v in project.kept.items() if v[2] is not kept[p]] == [stage2]
    combo = by_file[str(root / "combos" / "combos.yaml")]
    assert [d.code for d in combo] == ["RK224"] and "公共墓园" in combo[0].message
    assert str(root / "combos" / "combos.yaml") not in project.check({})


@pytest.mark.parametrize("path", CARD_FILES, ids=lambda p: p.name)
def test_every_prefix_of_a_shipped_file_gets_diagnostics_or_nothing(path: Path, tmp_path: Path):
    root = _folder(tmp_path).absolute()
    target = root / path.relative_to(SHIPPED)
    text = path.read_text(encoding="utf-8")
    project = Project(root)
    cuts = sorted({*range(0, len(text), STRIDE), *(i for i, ch in enumerate(text) if ch == "\n"), len(text)})
    for cut in cuts:
        _answers(project, target, text[:cut])


@pytest.mark.parametrize("text", BROKEN)
def test_every_prefix_of_a_broken_file_gets_diagnostics_or_nothing(text: str, tmp_path: Path):
    root = _folder(tmp_path).absolute()
    project = Project(root)
    for cut in range(len(text) + 1):
        _answers(project, root / "policies" / "stage1.yaml", text[:cut])
    found = _answers(project, root / "policies" / "stage1.yaml", text)
    assert found and all(d.severity in (T.DiagnosticSeverity.Error, T.DiagnosticSeverity.Warning,
                                        T.DiagnosticSeverity.Information) for d in found)


def _answers(project: Project, target: Path, text: str) -> list[T.Diagnostic]:
    """Diagnostics for the text, and every other answer at its last position: each must be a value or None."""
    by_file = project.check({target: text.encode("utf-8")})
    lines = X.split(text)
    found = [F.diagnostic(d, lines, "file:///docs") for d in by_file.get(str(target), [])]
    for d in found:
        assert 0 <= d.range.start.line < max(len(lines), 1) and d.range.start <= d.range.end
    end = T.Position(len(lines) - 1, X.utf16(lines[-1], len(lines[-1])))
    for pos in (end, T.Position(max(len(lines) - 2, 0), 3)):
        assert isinstance(F.hover(project, lines, pos), T.Hover | None)
        assert isinstance(F.completion(project, lines, pos), T.CompletionList)
        assert isinstance(F.definition(project, lines, pos), T.Location | None)
    assert len(F.semantic_tokens(lines).data) % 5 == 0
    F.symbols(project, str(target), lines)
    F.code_actions(target.as_uri(), lines, found)
    return found


def test_every_registry_word_has_hover_text_with_its_chinese_name():
    words = vocab.by_word()
    for section, names in registry.all_words().items():
        for name in names:
            assert name in words, (section, name)
            assert any(e.zh for e in words[name]), name
    for name in registry.KEYWORDS:
        assert name in words


@pytest.mark.parametrize("entry", [e for e in vocab.entries() if e.example], ids=lambda e: f"{e.section}:{e.word}")
def test_every_hover_example_is_an_effect_the_checker_accepts(entry: vocab.Entry):
    """An example a designer copies from a hover must check clean on some kind of card."""
    body = "\n".join("    " + line for line in entry.example.split("\n"))
    problems = {}
    for kind, extra in (("policy", "  stage: 2\n  price: 1\n"), ("advisor", ""), ("event", ""), ("combo", "  when: round > 1\n")):
        raw = f"- id: example\n  name: 例子\n{extra}  effect: |\n{body}\n".encode()
        facts = card_file_facts(raw, kind, "example.yaml")
        errors = [d for d in [*facts.diags, *facts.checked[0].diags] if d.severity == "error"] if facts.checked else ["?"]
        if not errors:
            return
        problems[kind] = errors
    raise AssertionError(f"{entry.word}: {problems}")


def _hover_at(project: Project | None, text: str, needle: str, offset: int = 1) -> str | None:
    lines = X.split(text)
    n = next(i for i, line in enumerate(lines) if needle in line)
    found = F.hover(project, lines, T.Position(n, lines[n].index(needle) + offset))
    return found.contents.value if found is not None and isinstance(found.contents, T.MarkupContent) else None


def test_hover_tells_a_trigger_from_a_verb_by_where_it_stands():
    text = "- id: a\n  effect: |\n    when reveal mild:\n      remove it\n    on play:\n      reveal 1 tiles\n"
    trigger = _hover_at(None, text, "reveal mild", 8)
    assert trigger is not None and trigger.startswith("**reveal mild** 翻开轻症 · trigger 触发器")
    verb = _hover_at(None, text, "reveal 1")
    assert verb is not None and "verb 动词" in verb.split("---")[0]
    assert _hover_at(None, "- id: a\n  flavor: reveal mild\n", "reveal") is None     # not effect text


def test_completion_offers_what_fits_where_the_cursor_is():
    def labels(line: str) -> list[str]:
        lines = ["- id: a", "  effect: |", "    " + line]
        return [i.label for i in F.completion(None, lines, T.Position(2, 4 + len(line))).items]

    assert labels("on income ") == ["start", "end"]
    assert labels("when reveal ") == ["mild", "healthy"]
    assert set(labels("modify ")) == set(registry.QUANTITIES)
    assert {"mild", "severe"} <= set(labels("  cure 1 "))
    assert set(labels("  shield ")) == set(registry.SHIELDABLE)
    items = F.completion(None, ["- id: a", "  effect: |", "    on play:", "      "], T.Position(3, 6)).items
    medical = next(i for i in items if i.label == "medical")
    assert medical.label_details is not None and medical.label_details.description == "医疗"


def test_semantic_tokens_colour_only_effect_text():
    lines = ["- id: cure_all", "  flavor: cure 1 mild", "  effect: |", "    on play:", "      cure 1 mild  # note"]
    data = F.semantic_tokens(lines).data
    starts, line = [], 0
    for i in range(0, len(data), 5):
        line += data[i]
        starts.append((line, F.TOKEN_TYPES[data[i + 3]]))
    assert {n for n, _ in starts} == {3, 4}
    assert [k for n, k in starts if n == 4] == ["function", "number", "enumMember", "comment"]

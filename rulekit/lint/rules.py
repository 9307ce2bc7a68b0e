"""The lint rules as the user sees them: each code's row of the table (rulekit.diagnostics.codes) with its
documentation (rulekit.diagnostics.texts), rendered as Markdown.

`rulekit rule CODE`, `docs/lint-rules.md` and the SARIF rule list all read from here. Every
code any module can emit has a rule (tests/test_diagnostics_table.py), and every rule's Example is a
card that really gets its code while its fix really does not (tests/test_lint_rules.py).
"""

from __future__ import annotations

import difflib
import textwrap
from dataclasses import dataclass

from rulekit.diagnostics.codes import R
from rulekit.diagnostics.texts import DOCS


@dataclass(frozen=True)
class Rule:
    """One diagnostic code and its documentation, in the words a card designer uses."""

    code: str
    name: str          # a short kebab-case name, as code-scanning tools show it
    severity: str      # error | warning | info (from the table)
    title: str         # one line (from the table)
    what: str          # What it does
    why: str           # Why it matters
    example: str       # a card (or rules.yaml) that gets this code
    fix: str           # How to fix, in words
    fixed: str         # the example, fixed ('' when the fix is not a change of the file)
    path: str | None = "policies/example.yaml"   # where the example sits in a content folder
    fixed_path: str | None = None                  # where the fixed example sits, if it moved
    context: tuple[tuple[str, str], ...] = ()      # other files the example needs: (path, text)
    encoding: str = "utf-8"                        # how the example file is saved
    lang: str = "yaml"

    @property
    def demo(self) -> bool:
        """True when the example is a file that gets this code (tests check each one)."""
        return self.path is not None

    def markdown(self, level: int = 2) -> str:
        h, sub = "#" * level, "#" * (level + 1)
        title = self.title[:1].upper() + self.title[1:]
        out = [f"{h} {self.code} {self.name}", "", f"**{title}** · severity: {self.severity}", "",
               f"{sub} What it does", "", _para(self.what), "",
               f"{sub} Why it matters", "", _para(self.why), "",
               f"{sub} Example", ""]
        out += _files(self.path, self.example, self.lang, self.encoding, self.context)
        out += [f"{sub} How to fix", "", _para(self.fix), ""]
        if self.fixed:
            out += _files(self.fixed_path or self.path, self.fixed, self.lang, "utf-8", ())
        return "\n".join(out)


def _para(text: str) -> str:
    return textwrap.dedent(text).strip()


def _block(text: str) -> str:
    return textwrap.dedent(text).strip("\n")


def _files(path: str | None, text: str, lang: str, encoding: str,
           context: tuple[tuple[str, str], ...]) -> list[str]:
    out: list[str] = []
    for other, body in context:
        out += [f"With `{other}`:", "", f"```{lang}", _block(body), "```", ""]
    if path is not None:
        saved = f" (saved as {encoding.upper()})" if encoding != "utf-8" else ""
        out += [f"In `{path}`{saved}:", ""]
    return [*out, f"```{lang}", _block(text), "```", ""]


def _rule(rule: R) -> Rule:
    doc = DOCS[rule]
    return Rule(rule.code, rule.slug, rule.severity, rule.summary, doc.what, doc.why, doc.example, doc.fix, doc.fixed,
                doc.path, doc.fixed_path, doc.context, doc.encoding, doc.lang)


# Every documented rule, by code in code order: the RK codes (a scenario's SC codes are rulekit test's).
RULES: dict[str, Rule] = {r.code: _rule(r) for r in sorted(DOCS, key=lambda r: r.code)}


def get(code: str) -> Rule | None:
    return RULES.get(code.strip().upper())


def closest(code: str) -> str | None:
    """The known code nearest to a mistyped one (RK2O1 -> RK201); None for a prefix or a stranger."""
    word = code.strip().upper().replace("O", "0")
    if len(word) != 5:
        return None
    close = difflib.get_close_matches(word, list(RULES), n=1, cutoff=0.75)
    return close[0] if close else None

"""docs/lint-rules.md, generated from the rules table and its texts: `python -m rulekit.lint.docs` rewrites it."""

from __future__ import annotations

import sys
from pathlib import Path

from rulekit.lint.rules import RULES

DOC_PATH = Path("docs") / "lint-rules.md"

_INTRO = """\
<!-- Generated from rulekit/diagnostics/ (codes.py, texts.py) by `python -m rulekit.lint.docs`; do not edit by hand. -->
# rulekit lint — every diagnostic code

`rulekit lint` checks the content folder and prints each problem as
`file:line:col: CODE message`. This page explains every code; `rulekit rule CODE` prints
the same text in the terminal.

- **error**: the card cannot be used as written; `rulekit lint` exits with status 1.
- **warning**: probably a mistake; also exit status 1.
- **info** (shown as a note): a reminder only; exit status 0.

Silence one code on one line with a comment `# rulekit: noqa: RK201` (several codes:
`# rulekit: noqa: RK201, RK202`; every code: `# rulekit: noqa`), in the YAML or inside
the effect text; or for a whole run with `--ignore RK201`.

| code | name | severity | what it reports |
|---|---|---|---|
"""


def markdown() -> str:
    rows = "".join(f"| [{r.code}](#{r.code.lower()}-{r.name}) | {r.name} | {r.severity} | {r.title} |\n"
                   for r in RULES.values())
    body = "\n".join(r.markdown(level=2) for r in RULES.values())
    return _INTRO + rows + "\n" + body


def main() -> None:
    """`python -m rulekit.lint.docs [PATH]` rewrites docs/lint-rules.md (or PATH) from the table."""
    if len(sys.argv) > 1 and sys.argv[1].startswith("-"):
        print(main.__doc__)
        return
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else DOC_PATH
    path.write_text(markdown(), encoding="utf-8")
    print(f"wrote {path} ({len(RULES)} rules)")


if __name__ == "__main__":
    main()

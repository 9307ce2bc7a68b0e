"""What the server knows of one content folder: its files' diagnostics and cards, by the loader's two stages.

The server checks as `rulekit lint` does (rulekit.lint.engine): `check_folder` over the folder with a
Source, and the files' `# rulekit: noqa` comments applied by lint's own filters. The Source here keeps
each file's stage-1 facts while its bytes are unchanged and gives the editor's unsaved text in place of
the file on disk, so a change re-reads only the changed file; stage 2 runs over every file's facts (it
re-checks only the effects whose card references the folder no longer holds, and the folder-wide
checks), so cross-file diagnostics are never stale.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from rulekit.content.checks import Draft
from rulekit.content.loader import (SCENARIO_SUFFIX, FileFacts, Folder, RulesFacts, Source, card_file_facts, check_folder,
                                    root_of, rules_file_facts, scenario_owner)
from rulekit.language.diagnostics import Diagnostic
from rulekit.lint.filters import noqa_lines, silenced
from rulekit.lint.run import Report


class EditorSource(Source):
    """Stage 1 for the server: the editor's text where a file is open, each file's facts kept per bytes."""

    def __init__(self, replaced: Mapping[Path, bytes], kept: dict[Path, tuple[bytes, str | None, object]]) -> None:
        super().__init__(replaced)
        self.kept = kept             # path -> (bytes, kind, facts): one entry per file, the latest bytes

    def card_facts(self, path: Path, raw: bytes, kind: str | None, file: str) -> FileFacts:
        hit = self.kept.get(path)
        if hit is not None and hit[0] == raw and hit[1] == kind and isinstance(hit[2], FileFacts):
            return hit[2]
        facts = card_file_facts(raw, kind, file)
        self.kept[path] = (raw, kind, facts)
        return facts

    def rules_facts(self, path: Path, raw: bytes, file: str) -> RulesFacts:
        hit = self.kept.get(path)
        if hit is not None and hit[0] == raw and isinstance(hit[2], RulesFacts):
            return hit[2]
        facts = rules_file_facts(raw, file)
        self.kept[path] = (raw, None, facts)
        return facts


@dataclass(frozen=True)
class CardInfo:
    """A card as the editor shows it: where it is written and what it is."""

    kind: str
    id: str | None
    name: str | None
    file: str
    line: int              # 1-based, the card's first line
    end_line: int          # 1-based, the card's last line
    data: dict

    def summary(self) -> str:
        """Markdown: kind, stage, price, status and effect."""
        from rulekit.registry import CARD_KINDS
        word = CARD_KINDS.get(self.kind)
        head = f"**{self.name or self.id}**" + (f" (`{self.id}`)" if self.name and self.id else "")
        facts = [f"{self.kind} {word.zh}" if word else self.kind]
        for key, zh in (("stage", "阶段"), ("price", "价格"), ("copies", "张数"), ("status", "状态")):
            if key in self.data:
                facts.append(f"{zh} {key}: {self.data[key]}")
        out = head + "\n\n" + " · ".join(facts)
        if isinstance(self.data.get("when"), str):
            out += f"\n\n条件 when: `{self.data['when']}`"
        effect = self.data.get("effect")
        if isinstance(effect, str) and effect.strip():
            out += f"\n\n```rulekit-effect\n{effect.rstrip()}\n```"
        return out + f"\n\n{Path(self.file).name}:{self.line}"


def _card_info(d: Draft) -> CardInfo | None:
    if d.kind is None or not isinstance(d.data, dict):
        return None
    span = d.loc.span(())
    end = span.end_line if span else d.line
    if span is not None and span.end_col <= 1 and end > span.line:
        end -= 1
    return CardInfo(d.kind, d.id, d.name, d.file, d.line, end, d.data)


class Project:
    """One content folder (or None: card files outside any), checked as a whole on each change."""

    def __init__(self, root: Path | None) -> None:
        self.root = root
        self.kept: dict[Path, tuple[bytes, str | None, object]] = {}
        self.loose: list[Path] = []               # open card files outside any content folder (root None)
        self.folder: Folder | None = None
        self.by_file: dict[str, list[Diagnostic]] = {}
        self.cards: list[CardInfo] = []
        self.texts: dict[str, bytes] = {}

    def check(self, open_texts: Mapping[Path, bytes]) -> dict[str, list[Diagnostic]]:
        """Both stages over the folder, with the open files' text: every file's diagnostics after noqa
        (the folder's own, RK009 and the like, go to rules.yaml)."""
        source = EditorSource(open_texts, self.kept)
        folder = check_folder(self.root, self.loose, source)
        self.folder = folder
        self.texts = source.texts
        report = Report([], 0, source.texts)
        by_file: dict[str, list[Diagnostic]] = {}
        noqa: dict[str, dict] = {}
        home = str(self.root / "rules.yaml") if self.root is not None else ""
        for d in folder.diagnostics:
            file = d.file if d.file in source.texts else home
            if not file:
                continue
            if d.line:
                if file not in noqa:
                    lines = report.lines(file)
                    noqa[file] = noqa_lines(lines) if lines is not None else {}
                if silenced(d, noqa[file]):
                    continue
            by_file.setdefault(file, []).append(d)
        self.by_file = by_file
        self.cards = [c for c in (_card_info(d) for d in folder.run.drafts) if c is not None]
        return by_file

    def card(self, ref: str, kinds: tuple[str, ...] = ()) -> CardInfo | None:
        """The card an effect's `played("…")` or a combo names: by id or by name."""
        for c in self.cards:
            if (ref == c.id or ref == c.name) and (not kinds or c.kind in kinds):
                return c
        return None

    def cards_of(self, file: str) -> list[CardInfo]:
        return [c for c in self.cards if c.file == file]


def project_root(path: Path) -> Path | None:
    """The content folder a card file (or rules.yaml) belongs to, as the loader finds it."""
    return root_of(path)


def is_scenario(path: Path) -> bool:
    return path.name.endswith(SCENARIO_SUFFIX) and scenario_owner(path) is not None


class Scenarios:
    """A scenario file's diagnostics, as `rulekit test` reads it: against its content folder on disk."""

    def __init__(self) -> None:
        self._sources: dict[Path, tuple[tuple, object]] = {}

    def check(self, path: Path, text: bytes) -> list[Diagnostic]:
        from rulekit.scenarios.reader import ContentSource, read_scenario
        root = scenario_owner(path)
        if root is None:
            return []
        stamp = _stamp(root)
        held = self._sources.get(root)
        if held is None or held[0] != stamp:
            held = (stamp, ContentSource(root))
            self._sources[root] = held
        source = held[1]
        assert isinstance(source, ContentSource)
        fd, tmp = tempfile.mkstemp(suffix=SCENARIO_SUFFIX)
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(text)
            return read_scenario(tmp, str(path), source)[2]
        finally:
            os.unlink(tmp)


def _stamp(root: Path) -> tuple:
    """When the content folder's files last changed (a scenario is checked against the files on disk)."""
    out = []
    for p in sorted(root.rglob("*.y*ml")):
        if "scenarios" not in p.relative_to(root).parts[:1]:
            try:
                out.append((str(p), p.stat().st_mtime_ns))
            except OSError:
                continue
    return tuple(out)

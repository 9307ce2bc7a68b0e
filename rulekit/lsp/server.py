"""`rulekit lsp`: the language server (pygls, over stdio) for content folders: cards, rules.yaml, scenarios.

On every open, change and save the file's content folder is checked again (rulekit.lsp.project: the
loader's two stages, as `rulekit lint` runs them), and every file of the folder whose diagnostics
changed gets them: a card deleted in one file shows at once on the combo in another that names it.
"""

from __future__ import annotations

import logging
from pathlib import Path
from urllib.parse import unquote, urlparse

from lsprotocol import types as T
from pygls.lsp.server import LanguageServer

from rulekit import __version__
from rulekit.lsp import features as F
from rulekit.lsp import text as X
from rulekit.lsp.project import Project, Scenarios, is_scenario, project_root

log = logging.getLogger(__name__)
_DOCS = Path(__file__).resolve().parents[2] / "docs" / "lint-rules.md"


def path_of(uri: str) -> Path | None:
    parsed = urlparse(uri)
    return Path(unquote(parsed.path)) if parsed.scheme == "file" else None


class RulekitServer(LanguageServer):
    """The server's state: a Project per content folder, and what each file was last sent."""

    def __init__(self) -> None:
        super().__init__("rulekit", __version__)
        self.projects: dict[Path | None, Project] = {}
        self.scenarios = Scenarios()
        self.sent: dict[str, list[T.Diagnostic]] = {}      # uri -> diagnostics last published
        self.docs = _DOCS.as_uri() if _DOCS.is_file() else ""

    def project_for(self, path: Path) -> Project:
        root = project_root(path)
        root = root.absolute() if root is not None else None
        project = self.projects.get(root)
        if project is None:
            project = self.projects[root] = Project(root)
        if root is None and path not in project.loose:
            project.loose.append(path)
        return project

    def open_texts(self) -> dict[Path, bytes]:
        out: dict[Path, bytes] = {}
        for uri, doc in self.workspace.text_documents.items():
            path = path_of(uri)
            if path is not None:
                out[path] = doc.source.encode("utf-8")
        return out

    def lines(self, uri: str) -> list[str]:
        return X.split(self.workspace.get_text_document(uri).source)

    def refresh(self, uri: str) -> None:
        """Check the file's folder (or the scenario) and publish what changed."""
        path = path_of(uri)
        if path is None or path.suffix.lower() not in (".yaml", ".yml"):
            return
        if is_scenario(path):
            found = self.scenarios.check(path, self.workspace.get_text_document(uri).source.encode("utf-8"))
            self.publish(uri, [F.diagnostic(d, self.lines(uri), self.docs) for d in found if d.file == str(path)])
            return
        project = self.project_for(path.absolute())
        by_file = project.check(self.open_texts())
        uris = {Path(f).as_uri(): f for f in by_file}
        stale = [u for u in self.sent if u not in uris and u != uri and (path_of(u) in _files(project))]
        for u in stale:
            self.publish(u, [])
        for u, file in uris.items():         # the other files first: the changed one's own comes last
            if u != uri:
                self.publish(u, [F.diagnostic(d, self.file_lines(u, project, file), self.docs) for d in by_file[file]])
        own = by_file.get(uris.get(uri, ""), [])
        self.publish(uri, [F.diagnostic(d, self.lines(uri), self.docs) for d in own])

    def file_lines(self, uri: str, project: Project, file: str) -> list[str]:
        if uri in self.workspace.text_documents:
            return self.lines(uri)
        raw = project.texts.get(file, b"")
        return X.split(raw.decode("utf-8", errors="replace"))

    def publish(self, uri: str, diags: list[T.Diagnostic]) -> None:
        if self.sent.get(uri) == diags and uri not in self.workspace.text_documents:
            return
        self.sent[uri] = diags
        doc = self.workspace.text_documents.get(uri)
        self.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri, diags, doc.version if doc else None))

    def context(self, uri: str) -> tuple[Project | None, list[str], bool]:
        path = path_of(uri)
        project = None
        if path is not None:
            root = project_root(path.absolute())
            project = self.projects.get(root.absolute() if root is not None else None)
            if project is None and path.suffix.lower() in (".yaml", ".yml"):
                project = self.project_for(path.absolute())
                project.check(self.open_texts())
        return project, self.lines(uri), path is not None and path.name == "rules.yaml"


def _files(project: Project) -> set[Path]:
    return {Path(f) for f in project.texts} | ({project.root / "rules.yaml"} if project.root else set())


server = RulekitServer()


def _safe(default):
    """A handler that logs a failure and answers `default`: a bug must never stop the server."""
    def wrap(fn):
        def run(ls: RulekitServer, params):
            try:
                return fn(ls, params)
            except Exception:        # reported to the editor's log: the server goes on
                log.exception("rulekit lsp: %s failed", fn.__name__)
                ls.window_log_message(T.LogMessageParams(T.MessageType.Error, f"rulekit lsp: {fn.__name__} failed; "
                                                         "see the server's log"))
                return default
        run.__name__ = fn.__name__
        return run
    return wrap


@server.feature(T.INITIALIZE)
@_safe(None)
def initialize(ls: RulekitServer, params: T.InitializeParams) -> None:
    options = params.initialization_options
    if isinstance(options, dict) and isinstance(options.get("docsUrl"), str):
        ls.docs = options["docsUrl"]


@server.feature(T.TEXT_DOCUMENT_DID_OPEN)
@_safe(None)
def did_open(ls: RulekitServer, params: T.DidOpenTextDocumentParams) -> None:
    ls.refresh(params.text_document.uri)


@server.feature(T.TEXT_DOCUMENT_DID_CHANGE)
@_safe(None)
def did_change(ls: RulekitServer, params: T.DidChangeTextDocumentParams) -> None:
    ls.refresh(params.text_document.uri)


@server.feature(T.TEXT_DOCUMENT_DID_SAVE)
@_safe(None)
def did_save(ls: RulekitServer, params: T.DidSaveTextDocumentParams) -> None:
    ls.refresh(params.text_document.uri)


@server.feature(T.TEXT_DOCUMENT_DID_CLOSE)
@_safe(None)
def did_close(ls: RulekitServer, params: T.DidCloseTextDocumentParams) -> None:
    path = path_of(params.text_document.uri)
    if path is not None and not path.exists():
        ls.publish(params.text_document.uri, [])


@server.feature(T.TEXT_DOCUMENT_HOVER)
@_safe(None)
def hover(ls: RulekitServer, params: T.HoverParams) -> T.Hover | None:
    project, lines, rules_file = ls.context(params.text_document.uri)
    return F.hover(project, lines, params.position, rules_file)


@server.feature(T.TEXT_DOCUMENT_COMPLETION, T.CompletionOptions(trigger_characters=['"', " ", "("]))
@_safe(None)
def completion(ls: RulekitServer, params: T.CompletionParams) -> T.CompletionList:
    project, lines, rules_file = ls.context(params.text_document.uri)
    return F.completion(project, lines, params.position, rules_file)


@server.feature(T.TEXT_DOCUMENT_DEFINITION)
@_safe(None)
def definition(ls: RulekitServer, params: T.DefinitionParams) -> T.Location | None:
    project, lines, _ = ls.context(params.text_document.uri)
    return F.definition(project, lines, params.position)


@server.feature(T.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
@_safe([])
def document_symbol(ls: RulekitServer, params: T.DocumentSymbolParams) -> list[T.DocumentSymbol]:
    project, lines, _ = ls.context(params.text_document.uri)
    path = path_of(params.text_document.uri)
    return F.symbols(project, str(path.absolute()) if path else "", lines)


@server.feature(T.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, T.SemanticTokensLegend(token_types=F.TOKEN_TYPES, token_modifiers=[]))
@_safe(T.SemanticTokens(data=[]))
def semantic_tokens(ls: RulekitServer, params: T.SemanticTokensParams) -> T.SemanticTokens:
    _, lines, rules_file = ls.context(params.text_document.uri)
    return F.semantic_tokens(lines, rules_file)


@server.feature(T.TEXT_DOCUMENT_CODE_ACTION, T.CodeActionOptions(code_action_kinds=[T.CodeActionKind.QuickFix]))
@_safe([])
def code_action(ls: RulekitServer, params: T.CodeActionParams) -> list[T.CodeAction]:
    return F.code_actions(params.text_document.uri, ls.lines(params.text_document.uri), params.context.diagnostics)


def main() -> None:
    server.start_io()

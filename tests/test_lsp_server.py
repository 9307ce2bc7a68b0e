"""`rulekit lsp` end to end: a real LSP client (pytest-lsp) talks to the server over stdio, on a copy of the
tests' deck, as an editor would while a designer types."""

from __future__ import annotations

import asyncio
import shutil
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as T
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from tests.conftest import CONTENT



@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("lsp") / "content"
    shutil.copytree(CONTENT, root)
    return root


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "rulekit", "lsp"]))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(T.InitializeParams(capabilities=client_capabilities("visual-studio-code")))
    yield
    await lsp_client.shutdown_session()


async def _open(client: LanguageClient, path: Path, text: str | None = None) -> str:
    uri = path.as_uri()
    client.diagnostics.pop(uri, None)
    client.text_document_did_open(T.DidOpenTextDocumentParams(
        T.TextDocumentItem(uri, "yaml", 1, text if text is not None else path.read_text(encoding="utf-8"))))
    await _published(client, uri)
    return uri


async def _published(client: LanguageClient, uri: str) -> None:
    """Wait for the file's own diagnostics (the server sends the other files' first, and the file's last)."""
    async with asyncio.timeout(20):
        while uri not in client.diagnostics:
            await asyncio.sleep(0.005)


async def _change(client: LanguageClient, uri: str, version: int, text: str) -> None:
    client.diagnostics.pop(uri, None)
    client.text_document_did_change(T.DidChangeTextDocumentParams(
        T.VersionedTextDocumentIdentifier(version, uri), [T.TextDocumentContentChangeWholeDocument(text)]))
    await _published(client, uri)


def _line_of(text: str, needle: str) -> tuple[int, int]:
    for n, line in enumerate(text.split("\n")):
        if needle in line:
            return n, line.index(needle)
    raise AssertionError(needle)


@pytest.mark.asyncio
async def test_a_typo_is_reported_as_you_type_with_its_code_link_and_fix(client: LanguageClient, folder: Path):
    path = folder / "policies" / "stage1.yaml"
    good = path.read_text(encoding="utf-8")
    uri = await _open(client, path)
    assert list(client.diagnostics[uri]) == []
    bad = good.replace("      medical += 1", "      medicl += 1", 1)
    await _change(client, uri, 2, bad)
    [d] = client.diagnostics[uri]
    n, col = _line_of(bad, "medicl")
    assert (d.code, d.severity, d.range.start) == ("RK201", T.DiagnosticSeverity.Error, T.Position(n, col))
    assert "did you mean 'medical'" in d.message
    assert d.code_description is not None and d.code_description.href.endswith("lint-rules.md#rk201-unknown-track")
    actions = await client.text_document_code_action_async(T.CodeActionParams(
        T.TextDocumentIdentifier(uri), d.range, T.CodeActionContext([d])))
    assert actions is not None
    edits = {a.title: a.edit.changes[uri][0] for a in actions if isinstance(a, T.CodeAction) and a.edit and a.edit.changes}
    fix = next(e for t, e in edits.items() if "'medical'" in t)
    assert fix.new_text == "medical" and fix.range == d.range
    noqa = next(e for t, e in edits.items() if "noqa" in t)
    assert noqa.new_text == "  # rulekit: noqa: RK201"
    silenced = bad.split("\n")
    silenced[n] += noqa.new_text
    await _change(client, uri, 3, "\n".join(silenced))
    assert list(client.diagnostics[uri]) == []          # the noqa the fix writes silences the diagnostic, as in lint
    await _change(client, uri, 4, good)
    assert list(client.diagnostics[uri]) == []


@pytest.mark.asyncio
async def test_renaming_a_card_shows_at_once_on_the_combo_that_names_it(client: LanguageClient, folder: Path):
    path = folder / "policies" / "stage2.yaml"
    good = path.read_text(encoding="utf-8")
    uri = await _open(client, path)
    combos = (folder / "combos" / "combos.yaml").as_uri()
    await _change(client, uri, 2, good.replace("name: 公共墓园", "name: 公共墓地", 1))
    assert any(d.code == "RK224" and "公共墓园" in d.message for d in client.diagnostics.get(combos, []))
    await _change(client, uri, 3, good)
    assert not any(d.severity == T.DiagnosticSeverity.Error for d in client.diagnostics.get(combos, []))


@pytest.mark.asyncio
async def test_hover_completion_definition_symbols_and_colours(client: LanguageClient, folder: Path):
    path = folder / "combos" / "combos.yaml"
    text = path.read_text(encoding="utf-8")
    uri = await _open(client, path)
    n, col = _line_of(text, '"公共墓园"')
    hover = await client.text_document_hover_async(T.HoverParams(T.TextDocumentIdentifier(uri), T.Position(n, col + 2)))
    assert hover is not None and isinstance(hover.contents, T.MarkupContent)
    assert "public_cemetery" in hover.contents.value and "policy" in hover.contents.value
    where = await client.text_document_definition_async(T.DefinitionParams(T.TextDocumentIdentifier(uri),
                                                                             T.Position(n, col + 2)))
    assert isinstance(where, T.Location) and where.uri == (folder / "policies" / "stage2.yaml").as_uri()
    stage2 = (folder / "policies" / "stage2.yaml").read_text(encoding="utf-8").split("\n")
    assert stage2[where.range.start.line].lstrip("- ").startswith("id: public_cemetery")
    n, col = _line_of(text, "policy += 1")
    hover = await client.text_document_hover_async(T.HoverParams(T.TextDocumentIdentifier(uri), T.Position(n, col + 1)))
    assert hover is not None and "政策" in hover.contents.value and "track" in hover.contents.value
    typed = text.replace('when: played("公共墓园")', 'when: played("', 1)
    await _change(client, uri, 2, typed)
    n, col = _line_of(typed, 'played("')
    done = await client.text_document_completion_async(T.CompletionParams(T.TextDocumentIdentifier(uri),
                                                                           T.Position(n, col + len('played("'))))
    assert done is not None
    items = done.items if isinstance(done, T.CompletionList) else done
    labels = {i.label for i in items}
    assert {"公共墓园", "public_cemetery"} <= labels and "游行示威" not in labels     # policies only, no event
    await _change(client, uri, 3, text)
    found = await client.text_document_document_symbol_async(T.DocumentSymbolParams(T.TextDocumentIdentifier(uri)))
    assert found is not None and [s.name for s in found][:2] == ["入土为安", "安居乐业"]
    tokens = await client.text_document_semantic_tokens_full_async(T.SemanticTokensParams(T.TextDocumentIdentifier(uri)))
    assert tokens is not None and len(tokens.data) > 0 and len(tokens.data) % 5 == 0


@pytest.mark.asyncio
async def test_half_typed_files_get_diagnostics_and_the_server_stays_up(client: LanguageClient, folder: Path):
    path = folder / "events" / "events.yaml"
    text = path.read_text(encoding="utf-8")
    uri = await _open(client, path)
    for version, cut in enumerate(range(7, len(text), max(len(text) // 40, 1)), start=2):
        await _change(client, uri, version, text[:cut])
        hover = await client.text_document_hover_async(T.HoverParams(T.TextDocumentIdentifier(uri), T.Position(0, 0)))
        assert hover is None or isinstance(hover, T.Hover)
    await _change(client, uri, 1000, "- id: [\n  effect: |\n    on play\n")
    assert any(d.code == "RK001" for d in client.diagnostics[uri])
    await _change(client, uri, 1001, text)
    assert list(client.diagnostics[uri]) == []

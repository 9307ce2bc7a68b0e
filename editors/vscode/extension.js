// The rulekit extension: starts `rulekit lsp` (over stdio) for the YAML files of a content folder.
// The colouring of effect text comes from the grammars in syntaxes/ and works without the server.
"use strict";
const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const [command, ...args] = vscode.workspace.getConfiguration("rulekit").get("command", ["rulekit", "lsp"]);
  const server = { command, args, transport: TransportKind.stdio };
  client = new LanguageClient("rulekit", "rulekit", server, {
    documentSelector: [{ scheme: "file", language: "yaml" }],
    synchronize: { fileEvents: vscode.workspace.createFileSystemWatcher("**/*.{yaml,yml}") },
  });
  client.start().catch((err) => {
    vscode.window.showErrorMessage(
      `rulekit: cannot start \`${[command, ...args].join(" ")}\` (${err.message}). ` +
      "Install rulekit with the lsp extra (pip install 'rulekit[lsp]') or set rulekit.command. " +
      "无法启动 rulekit 语言服务器：请安装 rulekit[lsp]，或设置 rulekit.command。");
  });
  context.subscriptions.push({ dispose: () => client && client.stop() });
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };

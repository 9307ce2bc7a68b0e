"""The language server for content files (`rulekit lsp`): rulekit.lsp.server runs it over stdio."""

-- rulekit's language server in Neovim (0.7 and later): put this file on your 'runtimepath' (or copy it into
-- your init.lua) and every YAML buffer inside a content folder gets `rulekit lsp`'s diagnostics, hover
-- (K), completion, go to definition (gd) and quick fixes (vim.lsp.buf.code_action).
-- Set vim.g.rulekit_cmd to another command, e.g. {"/path/to/venv/bin/rulekit", "lsp"}.
local M = {}

local function root_of(file)
  local dir = vim.fn.fnamemodify(file, ":p:h")
  while dir ~= "/" and dir ~= "" do
    if vim.fn.filereadable(dir .. "/rules.yaml") == 1 then
      return dir
    end
    dir = vim.fn.fnamemodify(dir, ":h")
  end
  return nil
end

function M.attach(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local root = root_of(vim.api.nvim_buf_get_name(bufnr))
  if root == nil then
    return nil
  end
  M.clients = M.clients or {}
  local id = M.clients[root]
  if id == nil then
    id = vim.lsp.start_client({ name = "rulekit", cmd = vim.g.rulekit_cmd or { "rulekit", "lsp" }, root_dir = root })
    M.clients[root] = id
  end
  vim.lsp.buf_attach_client(bufnr, id)
  return id
end

function M.setup()
  vim.api.nvim_create_autocmd({ "BufReadPost", "BufNewFile" }, {
    pattern = { "*.yaml", "*.yml" },
    callback = function(args) M.attach(args.buf) end,
  })
end

return M

-- Neovim + avante.nvim: oceancode as an ACP provider
require("avante").setup({
  provider = "oceancode",
  acp_providers = {
    oceancode = { command = "oceancode", args = { "acp" } },
  },
})

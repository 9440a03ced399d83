-- Neovim + CodeCompanion: oceancode as an ACP chat adapter. A sketch: an ACP adapter extended from a
-- built-in one with oceancode's command; check CodeCompanion's "Configuring ACP Adapters" page for the
-- exact keys of your version.
require("codecompanion").setup({
  adapters = {
    acp = {
      oceancode = function()
        return require("codecompanion.adapters").extend("gemini_cli", {
          name = "oceancode",
          formatted_name = "oceancode",
          commands = { default = { "oceancode", "acp" } },
          defaults = { auth_method = nil },
        })
      end,
    },
  },
  interactions = { chat = { adapter = "oceancode" } },
})

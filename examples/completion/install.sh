#!/usr/bin/env bash
# Install oceancode's shell completion for the shells found here (docs/completion.md).
set -euo pipefail
if command -v bash >/dev/null && ! grep -q 'oceancode completion bash' ~/.bashrc 2>/dev/null; then
  echo 'source <(oceancode completion bash)' >> ~/.bashrc
fi
if command -v zsh >/dev/null && ! grep -q 'oceancode completion zsh' ~/.zshrc 2>/dev/null; then
  # after compinit, which the line below runs if your .zshrc does not
  printf '%s\n' 'autoload -Uz compinit && compinit' 'source <(oceancode completion zsh)' >> ~/.zshrc
fi
if command -v fish >/dev/null; then
  mkdir -p ~/.config/fish/completions
  oceancode completion fish > ~/.config/fish/completions/oceancode.fish
fi
echo "open a new shell, then: oceancode <tab>"

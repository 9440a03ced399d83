/**
 * Whether links are written as OSC 8 hyperlinks. Only when the terminal says it supports them, and never
 * inside tmux or screen (they pass OSC 8 on only when configured to) unless asked:
 * OC_PAGER_LINKS=1 turns them on, OC_PAGER_LINKS=0 off, whatever the terminal. Off, a link shows as
 * `text (url)`.
 */
export function linksFromEnv(env: NodeJS.ProcessEnv): boolean {
  const asked = (env.OC_PAGER_LINKS ?? "").trim().toLowerCase();
  if (["1", "on", "true", "yes"].includes(asked)) return true;
  if (["0", "off", "false", "no"].includes(asked)) return false;
  if (env.TMUX || env.STY || /^(screen|tmux)/.test(env.TERM ?? "")) return false;
  if (env.TERM === "dumb" || env.CI) return false;
  const program = env.TERM_PROGRAM ?? "";
  if (["iTerm.app", "WezTerm", "vscode", "ghostty", "Hyper", "Tabby", "rio"].includes(program)) return true;
  if (env.KITTY_WINDOW_ID || env.TERM === "xterm-kitty" || env.WT_SESSION || env.KONSOLE_VERSION || env.ALACRITTY_WINDOW_ID) return true;
  // VTE (GNOME Terminal, Tilix, …) since 0.50
  const vte = Number(env.VTE_VERSION ?? "");
  return Number.isFinite(vte) && vte >= 5000;
}

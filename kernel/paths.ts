/** Where files live: XDG layout on every platform, with a home override for tests and --home. */
import os from "node:os";
import path from "node:path";

export interface Paths {
  home: string;
  project: string;
  configDir: string; // <XDG_CONFIG_HOME|~/.config>/oceancode
  dataDir: string; // <XDG_DATA_HOME|~/.local/share>/oceancode
  stateDir: string; // <XDG_STATE_HOME|~/.local/state>/oceancode
  userOcDir: string; // ~/.oceancode
}

export function resolvePaths(opts: { home?: string; project?: string; env?: NodeJS.ProcessEnv } = {}): Paths {
  const env = opts.env ?? process.env;
  const home = path.resolve(opts.home ?? env.HOME ?? os.homedir());
  // With an explicit --home, XDG dirs follow that home so tests and scripts stay inside it.
  const xdg = (name: string, fallback: string): string =>
    opts.home === undefined && env[name] ? path.resolve(env[name] as string) : path.join(home, fallback);
  return {
    home,
    project: path.resolve(opts.project ?? process.cwd()),
    configDir: path.join(xdg("XDG_CONFIG_HOME", ".config"), "oceancode"),
    dataDir: path.join(xdg("XDG_DATA_HOME", ".local/share"), "oceancode"),
    stateDir: path.join(xdg("XDG_STATE_HOME", ".local/state"), "oceancode"),
    userOcDir: path.join(home, ".oceancode"),
  };
}

/**
 * The environment of an oceancode run in a throwaway HOME: only PATH from this process, every per-user
 * directory (XDG config, data, state) inside `home`, managed config at `managedFile` (absent unless a
 * test writes it), no colour. Used by the test sandbox and the benches alike.
 */
import path from "node:path";

export function homeEnv(home: string, managedFile: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, ".config"),
    XDG_DATA_HOME: path.join(home, ".local", "share"),
    XDG_STATE_HOME: path.join(home, ".local", "state"),
    OC_MANAGED_CONFIG: managedFile,
    NO_COLOR: "1",
    ...extra,
  };
}

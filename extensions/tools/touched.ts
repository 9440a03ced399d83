/** Which paths a core tool call touches (for checks that reason about a call before it runs). */
import { resolveToolPath, type Refs, type ResolvedToolPath } from "./paths.js";

/** How each core tool names the paths it touches (input field, default when absent). */
const PATH_FIELDS: Readonly<Record<string, { field: string; defaultCwd: boolean }>> = {
  read: { field: "file_path", defaultCwd: false },
  write: { field: "file_path", defaultCwd: false },
  edit: { field: "file_path", defaultCwd: false },
  grep: { field: "path", defaultCwd: true },
  glob: { field: "path", defaultCwd: true },
  ls: { field: "path", defaultCwd: true },
  bash: { field: "workdir", defaultCwd: true },
};

export interface TouchedPath extends ResolvedToolPath {
  access: "read" | "write" | "cwd";
}

/**
 * The paths a core tool call touches, resolved (refs expanded). For bash only its working directory is
 * known here; the shell guard reasons about paths inside the command.
 */
export function toolPaths(tool: string, input: Record<string, unknown>, opts: { cwd: string; refs?: Refs; project?: string; home?: string }): TouchedPath[] {
  const spec = PATH_FIELDS[tool];
  if (!spec) return [];
  const raw = input[spec.field];
  const given = typeof raw === "string" && raw.length > 0 ? raw : undefined;
  if (given === undefined && !spec.defaultCwd) return [];
  const resolved = resolveToolPath(given ?? ".", opts);
  const access = tool === "write" || tool === "edit" ? "write" : tool === "bash" ? "cwd" : "read";
  return [{ ...resolved, access }];
}

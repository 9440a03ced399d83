/**
 * `oceancode -r [id]`: which stored session the pager reopens. No id: the picker over this directory's
 * sessions (esc: exit 0). An id: as stored, or a unique prefix of one; anything else is a usage error
 * naming the nearest ids. Without a storage service the id goes to the engine as typed.
 */
import type { Kernel } from "../boot.js";
import type { CommandIO } from "../../kernel/api.js";
import { visibleLine } from "../terminal/sanitize.js";
import { didYouMean } from "../cli/suggest.js";
import { pickSession } from "./resume-picker.js";

/** The id to reopen, or the exit code when the pager should not start. */
export async function resumeTarget(kernel: Kernel, io: CommandIO, typed: string, stdin: NodeJS.ReadStream, stdout: NodeJS.WriteStream): Promise<string | number> {
  const storage = kernel.hasService("storage") ? await kernel.service("storage").catch(() => undefined) : undefined;
  if (!storage) {
    if (typed) return typed;
    io.stderr.write("oceancode: -r: sessions are not stored (the storage extension is off); give an id\n");
    return 2;
  }
  await storage.settle();
  const here = (await storage.listSessions({ cwd: io.project, limit: 200 })).filter((s) => s.turns > 0);
  if (!typed) {
    if (!here.length) {
      io.stderr.write(`oceancode: -r: no earlier session in ${visibleLine(io.project)} (oceancode opens a fresh one)\n`);
      return 1;
    }
    const picked = await pickSession(here, stdin, stdout);
    return picked ?? 0;
  }
  const all = [...here, ...(await storage.listSessions({ limit: 1000 }))];
  if (all.some((s) => s.id === typed)) return typed;
  const prefixed = [...new Set(all.filter((s) => s.id.startsWith(typed)).map((s) => s.id))];
  if (prefixed.length === 1) return prefixed[0]!;
  const why = prefixed.length > 1 ? ` ('${visibleLine(typed)}' starts ${prefixed.length} ids: ${prefixed.slice(0, 3).join(", ")}${prefixed.length > 3 ? ", …" : ""})` : didYouMean(typed, [...new Set(all.map((s) => s.id))]);
  io.stderr.write(`oceancode: -r: no session '${visibleLine(typed)}'${why}\nusage: oceancode -r [<id>]  (oceancode sessions lists them; -r alone picks one)\n`);
  return 2;
}

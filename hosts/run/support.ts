/** `oceancode run`'s helpers that are not the run itself: stdin, ask verdicts, where an unstored session is. */
import type { Kernel } from "../boot.js";
import type { Question } from "../../extensions/engine/api.js";
import type { StreamInput, StreamInputReader } from "./stream-input.js";

export async function readStdin(stdin: NodeJS.ReadableStream): Promise<string> {
  let data = "";
  stdin.setEncoding("utf8");
  for await (const chunk of stdin) data += chunk as string;
  return data;
}

/** The stderr verdict on an ask, matching what the question handler answered. */
export function questionOutcome(q: Question, auto: boolean): string {
  if (!auto) return "rejected (run without --auto; rerun with --auto to approve)";
  if (q.autoApprove === false) return "rejected: --auto never approves this ask (only a person can, or an exact allow rule for the command)";
  return "approved by --auto";
}

/** Sub-services a run may use when their extensions are present (types are structural, never imported code). */
export interface TidelineLike {
  parseSpec?(text: string): unknown;
}

/** Where a session the database did not keep is on disk: its transcript, only when the ledger really wrote it. */
export async function ledgerRecord(kernel: Kernel, sessionId: string): Promise<string> {
  const ledger = kernel.hasService("ledger") ? await kernel.service("ledger") : undefined;
  if (!ledger?.enabled) return "the ledger is off, so nothing of it is on disk";
  await ledger.settle?.().catch(() => undefined);
  const failed = ledger.writeError?.();
  // a full disk: the ledger writes whole records or none, so what it held before is intact and a later run -c goes on
  if (failed && /^the disk holding .* is full/.test(failed)) return `the ledger could not write all of it either (${failed}); what was stored before is kept: free some space, then run -c to go on`;
  if (failed) return `the ledger could not write it either (${failed}), so it is not on disk whole; free space or fix ${ledger.dirOf(sessionId)}, then run again`;
  return `its transcript is in ${ledger.dirOf(sessionId)}/transcript/`;
}

/** Why the session store is not keeping sessions (a damaged or unwritable database), if it says. */
export async function storageTrouble(kernel: Kernel): Promise<string | undefined> {
  if (!kernel.hasService("storage")) return undefined;
  const h = (await kernel.service("storage")).health?.();
  return h && !h.ok ? (h.message ?? "the session database did not take every write") : undefined;
}

/** The next stdin message, or an end when the run is stopped while it waits for one. */
export function nextOrAbort(input: StreamInputReader, signal: AbortSignal): Promise<StreamInput> {
  if (signal.aborted) return Promise.resolve({ kind: "end" });
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve({ kind: "end" });
    signal.addEventListener("abort", onAbort, { once: true });
    input.next().then(
      (v) => {
        signal.removeEventListener("abort", onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(e as Error);
      },
    );
  });
}

/** `oceancode verify-release <artifact> [--sha256sums <path>] [--pubkey <base64>] [--sig <path>]` */
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import type { CommandIO } from "../../kernel/api.js";
import { parseSha256Sums, verifyAsset, verifyFailure } from "./verify.js";
import { VerifyUsage } from "./errors.js";

const USAGE = "usage: oceancode verify-release <artifact> [--pubkey <base64>] [--sha256sums <path>] [--sig <path>]";

export async function verifyReleaseCommand(argv: string[], io: CommandIO): Promise<number> {
  let asset: string;
  let sums: string | undefined;
  let pubkey: string | undefined;
  let sigPath: string | undefined;
  try {
    const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, strict: true, options: { sha256sums: { type: "string" }, pubkey: { type: "string" }, sig: { type: "string" } } });
    if (positionals.length !== 1) throw VerifyUsage({ message: positionals.length ? "one artifact at a time" : "which artifact? (a path)" });
    asset = path.resolve(io.project, positionals[0]!);
    sums = values.sha256sums === undefined ? undefined : path.resolve(io.project, values.sha256sums);
    pubkey = values.pubkey;
    sigPath = values.sig === undefined ? undefined : path.resolve(io.project, values.sig);
  } catch (e) {
    io.stderr.write(`oceancode verify-release: ${(e as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const fail = (what: string): number => {
    io.stdout.write(`FAILED: ${what}\n`);
    io.stderr.write(`oceancode verify-release: ${path.basename(asset)}: ${what}\n`);
    return 1;
  };
  const data = readOrUndefined(asset);
  if (!data) return fail(`cannot read ${asset}`);
  const name = path.basename(asset);
  // the sums file: the one named, else one beside the asset
  const sumsFile = sums ?? (fs.existsSync(path.join(path.dirname(asset), "SHA256SUMS")) ? path.join(path.dirname(asset), "SHA256SUMS") : undefined);
  let expected: string | undefined;
  if (sumsFile) {
    const text = readOrUndefined(sumsFile);
    if (!text) return fail(`cannot read ${sumsFile}`);
    expected = parseSha256Sums(text.toString("utf8")).get(name);
    if (!expected) return fail(`sha256: ${path.basename(sumsFile)} has no line for ${name}`);
  }
  const sigFile = sigPath ?? `${asset}.minisig`;
  const sig = readOrUndefined(sigFile)?.toString("utf8");
  try {
    const report = verifyAsset(data, sig, { ...(expected ? { expectedSha256: expected } : {}), ...(pubkey !== undefined ? { pubkey } : {}) });
    if (report.sha256) io.stdout.write(`sha256 ok (${report.sha256}, ${path.basename(sumsFile!)})\n`);
    else io.stdout.write("sha256 not checked (no SHA256SUMS beside the asset; pass --sha256sums)\n");
    io.stdout.write(`signature ok (key ${report.keyId}, trusted comment: ${report.trustedComment})\n`);
    io.stdout.write(`VERIFIED ${name}\n`);
    return 0;
  } catch (e) {
    const what = verifyFailure(e);
    if (!what) throw e;
    if (what === "key") {
      io.stderr.write(`oceancode verify-release: ${(e as Error).message}\n${USAGE}\n`);
      return 2;
    }
    if (what !== "sha256" && expected) io.stdout.write("sha256 ok\n");
    return fail(what === "unsigned" ? `unsigned: no signature file ${sigFile}` : (e as Error).message);
  }
}

function readOrUndefined(file: string): Buffer | undefined {
  try {
    return fs.readFileSync(file);
  } catch {
    return undefined;
  }
}

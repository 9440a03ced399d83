/**
 * Another process holding oceancode.db's lock, as a backup tool or a `sqlite3` shell in a transaction
 * would: "write" takes BEGIN EXCLUSIVE on the WAL database (readers go on, every writer gets SQLITE_BUSY);
 * "all" also sets locking_mode=EXCLUSIVE, so no other connection can even read. It holds until stop().
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { REPO_ROOT } from "../kit/cli.js";

export interface DbHolder {
  pid: number;
  stop(): Promise<void>;
}

const SCRIPT = `
const Database = require(process.argv[1]);
const db = new Database(process.argv[2]);
if (process.argv[3] === "all") db.pragma("locking_mode = EXCLUSIVE");
db.exec("BEGIN EXCLUSIVE");
if (process.argv[3] === "all") db.prepare("SELECT COUNT(*) FROM sessions").get();
process.stdout.write("locked\\n");
process.stdin.on("end", () => { db.exec("COMMIT"); db.close(); process.exit(0); });
process.stdin.resume();
`;

export function holdDb(file: string, mode: "write" | "all"): Promise<DbHolder> {
  const child: ChildProcess = spawn(process.execPath, ["-e", SCRIPT, path.join(REPO_ROOT, "node_modules", "better-sqlite3"), file, mode], { stdio: ["pipe", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    const guard = setTimeout(() => reject(new Error("the holder did not take the lock within 10 s")), 10_000);
    child.on("error", reject);
    child.on("exit", (code) => reject(new Error(`the holder exited (${code}) before taking the lock`)));
    child.stdout!.on("data", (d: Buffer) => {
      if (!d.toString().includes("locked")) return;
      clearTimeout(guard);
      resolve({
        pid: child.pid!,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.removeAllListeners("exit");
            child.on("exit", () => done());
            child.stdin!.end();
          }),
      });
    });
  });
}

/**
 * A throwaway PostgreSQL server for tests: a temp data directory owned by the `postgres` system user
 * (PostgreSQL refuses to run as root, and the tests do), `initdb` with a password for TCP connections
 * (scram-sha-256, so the URL's password is really used), a free port on 127.0.0.1 only, the Unix socket in
 * the data directory. Stopped (immediate) and removed by `stop()`.
 *
 * The binaries are looked up on PATH, then /usr/local/bin, then the Debian package's /usr/lib/postgresql/<v>/bin.
 * When they are missing the helper throws (a test run without PostgreSQL fails; it never skips): .ci/run
 * installs the `postgresql` package when `initdb` is not on PATH.
 */
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

export interface TestPostgres {
  port: number;
  /** the superuser's password (the security tests look for it in every output) */
  password: string;
  /** with `tls`: the CA that signed the server's certificate */
  caFile?: string;
  /** postgres://postgres:<password>@127.0.0.1:<port>/<db> */
  url(db?: string): string;
  /** a fresh database, for one test's isolation */
  createDatabase(name: string): Promise<string>;
  /** stop the server (fast: every connection dropped) and keep its data directory, for `restart` */
  down(): void;
  /** start it again on the same data directory and port (after `down`) */
  up(): void;
  stop(): void;
}

function binDirs(): string[] {
  const dirs = (process.env.PATH ?? "").split(path.delimiter).filter(Boolean);
  dirs.push("/usr/local/bin");
  try {
    for (const v of fs.readdirSync("/usr/lib/postgresql").sort().reverse()) dirs.push(path.join("/usr/lib/postgresql", v, "bin"));
  } catch {
    /* no Debian install */
  }
  return dirs;
}

export function postgresBin(name: "initdb" | "pg_ctl" | "postgres"): string {
  for (const d of binDirs()) {
    const f = path.join(d, name);
    if (fs.existsSync(f)) return f;
  }
  throw new Error(
    `test/kit/postgres.ts: '${name}' not found on PATH, /usr/local/bin or /usr/lib/postgresql/*/bin: ` +
      `install PostgreSQL (apt-get install postgresql; .ci/run does this) to run the storage-postgres tests`,
  );
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/** Run as the postgres system user when we are root (PostgreSQL refuses root); as ourselves otherwise. */
function asPostgres(cmd: string, args: string[]): { file: string; args: string[] } {
  if (process.getuid?.() !== 0) return { file: cmd, args };
  try {
    execFileSync("id", ["postgres"], { stdio: "ignore" });
  } catch {
    execFileSync("useradd", ["--system", "--no-create-home", "--shell", "/usr/sbin/nologin", "postgres"], { stdio: "ignore" });
  }
  return { file: "runuser", args: ["-u", "postgres", "--", cmd, ...args] };
}

function run(cmd: string, args: string[], what: string): void {
  const c = asPostgres(cmd, args);
  const r = spawnSync(c.file, c.args, { encoding: "utf8", timeout: 60_000 });
  if (r.status !== 0) throw new Error(`test/kit/postgres.ts: ${what} failed (${r.status ?? r.signal}): ${r.stderr || r.stdout}`);
}

/**
 * A test CA and a server certificate it signs for 127.0.0.1 / localhost (openssl CLI), in `dir`:
 * ca.crt (what a client trusts), server.crt, server.key (0600, owned by whoever runs the server).
 */
function makeCertificates(dir: string, owner?: { uid: number; gid: number }): { ca: string } {
  const ssl = (args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: ["ignore", "ignore", "pipe"] });
  ssl(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.crt", "-subj", "/CN=oceancode test CA", "-days", "2"]);
  ssl(["req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=127.0.0.1"]);
  fs.writeFileSync(path.join(dir, "san.ext"), "subjectAltName=IP:127.0.0.1,DNS:localhost\n");
  ssl(["x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial", "-out", "server.crt", "-days", "2", "-extfile", "san.ext"]);
  fs.chmodSync(path.join(dir, "server.key"), 0o600);
  if (owner) for (const f of ["server.crt", "server.key"]) fs.chownSync(path.join(dir, f), owner.uid, owner.gid);
  return { ca: path.join(dir, "ca.crt") };
}

/** A certificate authority that signed nothing the server presents (what an impostor's chain looks like to a client). */
export function otherCertificateAuthority(dir: string): string {
  execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "other-ca.key", "-out", "other-ca.crt", "-subj", "/CN=someone else", "-days", "2"], { cwd: dir, stdio: ["ignore", "ignore", "pipe"] });
  return path.join(dir, "other-ca.crt");
}

/** `tls`: the server also speaks TLS with a certificate from its own test CA (`caFile`); plain connections still work. */
export async function startPostgres(opts: { tls?: boolean } = {}): Promise<TestPostgres> {
  const initdb = postgresBin("initdb");
  const pgctl = postgresBin("pg_ctl");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "oc-pg-"));
  const data = path.join(dir, "data");
  const password = `pw-${Math.random().toString(36).slice(2, 12)}-secret`;
  const pwfile = path.join(dir, "pwfile");
  fs.writeFileSync(pwfile, `${password}\n`);
  asPostgres("true", []); // creates the user when missing
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
    fs.chownSync(dir, uid, gid);
    fs.chownSync(pwfile, uid, gid);
  }
  let caFile: string | undefined;
  let sslOpts = "";
  if (opts.tls) {
    const owner = process.getuid?.() === 0 ? { uid: fs.statSync(dir).uid, gid: fs.statSync(dir).gid } : undefined;
    caFile = makeCertificates(dir, owner).ca;
    sslOpts = ` -c ssl=on -c ssl_cert_file=${path.join(dir, "server.crt")} -c ssl_key_file=${path.join(dir, "server.key")}`;
  }
  run(initdb, ["-D", data, "-U", "postgres", "--auth-local=trust", "--auth-host=scram-sha-256", `--pwfile=${pwfile}`, "-E", "UTF8", "--no-sync"], "initdb");
  const port = await freePort();
  const start = () => run(pgctl, ["-D", data, "-l", path.join(dir, "server.log"), "-o", `-p ${port} -h 127.0.0.1 -k ${dir} -c fsync=off -c max_connections=200${sslOpts}`, "-w", "start"], "pg_ctl start");
  start();
  const url = (db = "postgres") => `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${db}`;
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    try {
      run(pgctl, ["-D", data, "-m", "immediate", "-w", "stop"], "pg_ctl stop");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };
  process.once("exit", stop);
  return {
    port,
    password,
    url,
    caFile,
    async createDatabase(name: string) {
      const { default: pg } = await import("pg");
      const c = new pg.Client({ connectionString: url() });
      await c.connect();
      try {
        await c.query(`CREATE DATABASE "${name.replace(/"/g, "")}"`);
      } finally {
        await c.end();
      }
      return url(name);
    },
    down() {
      run(pgctl, ["-D", data, "-m", "fast", "-w", "stop"], "pg_ctl stop (fast)");
    },
    up() {
      start();
    },
    stop,
  };
}

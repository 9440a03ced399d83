/**
 * The allowlist relay: an HTTP proxy on a unix socket (the only way out of the sandbox's empty network
 * namespace). CONNECT host:port and absolute-URI requests are refused unless the host is exactly in
 * allow_hosts; on a CONNECT the first TLS record's SNI must name the same host (no domain fronting).
 * Not enforced: what flows inside an allowed TLS connection; clients that ignore HTTP(S)_PROXY get no network.
 */
import net from "node:net";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** The SNI host of a TLS ClientHello, or undefined (not TLS / no SNI / truncated). */
export function sniOf(buf: Buffer): string | undefined {
  try {
    if (buf[0] !== 0x16 || buf[5] !== 0x01) return undefined;
    let p = 9 + 2 + 32; // record hdr(5) + hs hdr(4) + version(2) + random(32)
    p += 1 + buf[p]!; // session id
    p += 2 + buf.readUInt16BE(p); // cipher suites
    p += 1 + buf[p]!; // compression
    const end = p + 2 + buf.readUInt16BE(p);
    p += 2;
    while (p + 4 <= end) {
      const type = buf.readUInt16BE(p);
      const len = buf.readUInt16BE(p + 2);
      if (type === 0) return buf.subarray(p + 9, p + 9 + buf.readUInt16BE(p + 7)).toString("ascii").toLowerCase();
      p += 4 + len;
    }
  } catch {
    return undefined;
  }
  return undefined;
}

export interface Relay {
  dir: string;
  socket: string;
  close(): Promise<void>;
}

export async function startRelay(allowHosts: string[], log: (m: string) => void = () => undefined): Promise<Relay> {
  const allowed = new Set(allowHosts.map((h) => h.toLowerCase()));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "oc-relay-"));
  const socket = path.join(dir, "relay.sock");
  const server = net.createServer((client) => {
    let head = Buffer.alloc(0);
    const onData = (d: Buffer): void => {
      head = Buffer.concat([head, d]);
      const end = head.indexOf("\r\n\r\n");
      if (end < 0) {
        if (head.length > 16384) client.destroy();
        return;
      }
      client.off("data", onData);
      const lines = head.subarray(0, end).toString("latin1").split("\r\n");
      const [method, target] = lines[0]!.split(" ");
      const rest = head.subarray(end + 4);
      let host: string;
      let port: number;
      if (method === "CONNECT") {
        const m = /^\[?([^\]]+?)\]?:(\d+)$/.exec(target ?? "");
        host = (m?.[1] ?? "").toLowerCase();
        port = Number(m?.[2] ?? 0);
      } else {
        let u: URL;
        try {
          u = new URL(target ?? "");
        } catch {
          client.end("HTTP/1.1 400 Bad Request\r\n\r\n");
          return;
        }
        host = u.hostname.toLowerCase();
        port = Number(u.port || 80);
      }
      if (!allowed.has(host)) {
        log(`relay refused ${host}:${port} (not in sandbox.allow_hosts)`);
        client.end(`HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\n\r\noceancode sandbox: ${host} is not in sandbox.allow_hosts\n`);
        return;
      }
      const upstream = net.connect(port, host);
      upstream.on("error", () => client.destroy());
      client.on("error", () => upstream.destroy());
      if (method === "CONNECT") {
        upstream.once("connect", () => {
          client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
          client.once("data", (first: Buffer) => {
            const sni = sniOf(first);
            if (first[0] === 0x16 && sni !== undefined && sni !== host) {
              log(`relay refused TLS to ${sni} through a CONNECT for ${host}`);
              client.destroy();
              upstream.destroy();
              return;
            }
            upstream.write(first);
            client.pipe(upstream).pipe(client);
          });
        });
      } else {
        upstream.write(head.subarray(0, end + 4));
        upstream.write(rest);
        client.pipe(upstream).pipe(client);
      }
    };
    client.on("data", onData);
    client.on("error", () => undefined);
  });
  await new Promise<void>((resolve, reject) => server.listen(socket, resolve).once("error", reject));
  fs.chmodSync(socket, 0o666);
  server.unref();
  return {
    dir,
    socket,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        fs.rmSync(dir, { recursive: true, force: true });
      }),
  };
}

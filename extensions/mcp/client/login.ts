/**
 * `oceancode mcp login <name>`: the OAuth authorization-code flow with PKCE for one remote server, on the
 * SDK's auth() (discovery, dynamic client registration, token exchange). The redirect comes back to a
 * one-shot HTTP listener on 127.0.0.1; the state parameter is checked, so another page hitting the port
 * cannot finish the login. The tokens land in the credentials store (client/oauth.ts).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";
import { LoginOAuthProvider, type OAuthStore } from "./oauth.js";
import { McpLoginFailed } from "../errors.js";

export interface LoginOptions {
  server: string;
  url: string;
  store: OAuthStore;
  /** the loopback port for the redirect (0: any free one) */
  port?: number;
  /** how long to wait for the browser to come back, ms */
  timeoutMs: number;
  /** show the authorization URL (and open a browser); called once */
  onAuthorize: (authorizationUrl: URL, redirectUrl: string) => void;
}

/** Why a login did not finish (OC_ERR_MCP_LOGIN). */
export const LoginError = (message: string) => McpLoginFailed({ message });

const PAGE = (text: string) => `<!doctype html><meta charset="utf-8"><title>oceancode</title><p>${text}</p>`;

/** The one-shot redirect listener: resolves with the code of the first callback that carries our state. */
async function listen(port: number, state: string): Promise<{ redirectUrl: string; code: Promise<string>; close: () => void }> {
  let settle!: { resolve: (code: string) => void; reject: (e: Error) => void };
  const code = new Promise<string>((resolve, reject) => (settle = { resolve, reject }));
  code.catch(() => undefined);
  const server = http.createServer((req, res) => {
    const u = new URL(req.url ?? "/", "http://127.0.0.1");
    if (req.method !== "GET" || u.pathname !== "/callback") return void res.writeHead(404).end();
    if (u.searchParams.get("state") !== state) {
      // not our authorization (a stale tab, another page): refused, and the login keeps waiting
      return void res.writeHead(400, { "content-type": "text/html" }).end(PAGE("This link does not belong to the login in progress."));
    }
    const error = u.searchParams.get("error");
    const got = u.searchParams.get("code");
    if (error || !got) {
      res.writeHead(400, { "content-type": "text/html" }).end(PAGE("The authorization was not granted. You can close this tab."));
      const why = [error ?? "no code in the redirect", u.searchParams.get("error_description")].filter(Boolean).join(": ");
      return settle.reject(LoginError(`the authorization server answered ${why.slice(0, 300)}`));
    }
    res.writeHead(200, { "content-type": "text/html" }).end(PAGE("oceancode is authorized. You can close this tab."));
    settle.resolve(got);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", (e: NodeJS.ErrnoException) => reject(LoginError(`cannot listen on 127.0.0.1:${port} for the redirect (${e.code ?? e.message})`)));
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const { port: bound } = server.address() as AddressInfo;
  return { redirectUrl: `http://127.0.0.1:${bound}/callback`, code, close: () => server.close() };
}

/** Run the whole login; resolves when the tokens are stored, rejects with an OC_ERR_MCP_LOGIN error saying why not. */
export async function login(opts: LoginOptions): Promise<void> {
  const state = randomBytes(16).toString("hex");
  const redirect = await listen(opts.port ?? 0, state);
  let timer: NodeJS.Timeout | undefined;
  try {
    const { auth } = await import("@modelcontextprotocol/sdk/client/auth.js");
    let shown = false;
    const provider = new LoginOAuthProvider(opts.store, opts.server, opts.url, redirect.redirectUrl, (u) => {
      shown = true;
      opts.onAuthorize(u, redirect.redirectUrl);
    }, state);
    const first = await auth(provider, { serverUrl: opts.url }).catch((e: unknown) => {
      throw LoginError(`cannot start the authorization with ${opts.url}: ${e instanceof Error ? e.message : String(e)}`);
    });
    if (first === "AUTHORIZED") return;
    if (!shown) throw LoginError("the server gave no authorization URL");
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(LoginError(`no answer from the browser within ${Math.round(opts.timeoutMs / 1000)} s`)), opts.timeoutMs);
    });
    const code = await Promise.race([redirect.code, timeout]);
    const second = await auth(provider, { serverUrl: opts.url, authorizationCode: code }).catch((e: unknown) => {
      throw LoginError(`the token exchange failed: ${e instanceof Error ? e.message : String(e)}`);
    });
    if (second !== "AUTHORIZED") throw LoginError("the token exchange did not authorize");
  } finally {
    clearTimeout(timer);
    redirect.close();
  }
}

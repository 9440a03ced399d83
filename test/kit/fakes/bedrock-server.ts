/**
 * A stand-in for the Amazon Bedrock runtime on 127.0.0.1, as @anthropic-ai/bedrock-sdk calls it:
 * POST /model/<model id>/invoke-with-response-stream (InvokeModelWithResponseStream) with a SigV4-signed
 * request, answered in AWS's binary event-stream framing (`chunk` events carrying base64 Anthropic
 * events; exception frames for mid-stream failures). The SigV4 check is independent of the AWS SDK's
 * signer: credential scope (access key, date, region, service `bedrock`), x-amz-date, the signed headers
 * (host and x-amz-date at least, x-amz-security-token with a session token) and the signature itself.
 * Answers come from an inner fake Anthropic server (`inner.enqueue(...)`), its failures translated to
 * Bedrock's (x-amzn-errortype ThrottlingException, ServiceUnavailableException, ValidationException...).
 *
 *   const fake = await startFakeBedrock({ accessKeyId: "AKIA…", secretAccessKey: "…", region: "eu-west-1" });
 *   fake.inner.enqueue({ text: "hi" });
 */
import crypto from "node:crypto";
import type http from "node:http";
import { EventStreamCodec } from "@smithy/eventstream-codec";
import { fromUtf8, toUtf8 } from "@smithy/util-utf8";
import { sendJson, startServer, type BaseServer, type FakeServerOptions } from "./common.js";
import type { FakeAnthropicServer } from "./anthropic-server.js";
import { relay, startInner } from "./anthropic-relay.js";

export interface FakeBedrockOptions extends FakeServerOptions {
  accessKeyId: string;
  secretAccessKey: string;
  /** required when the client sends x-amz-security-token */
  sessionToken?: string;
  region: string;
  /** a Bedrock API key (AWS_BEARER_TOKEN_BEDROCK) accepted as `Authorization: Bearer <key>` instead of SigV4 */
  apiKey?: string;
}

export interface BedrockRecorded {
  path: string;
  /** the model id from the path, decoded */
  model: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
  /** the Authorization header's parts (undefined: the request carried the Bedrock API key instead) */
  sigv4?: { accessKeyId: string; date: string; region: string; service: string; signedHeaders: string[] };
}

export interface FakeBedrockServer extends BaseServer<Record<string, unknown>> {
  inner: FakeAnthropicServer;
  /** accepted invocations, in order */
  invocations: BedrockRecorded[];
  /** why requests were refused (a bad signature, a wrong region…), in order */
  refusals: string[];
}

const AUTH = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/;

const sha256 = (s: string | Buffer) => crypto.createHash("sha256").update(s).digest("hex");
const hmac = (k: string | Buffer, s: string) => crypto.createHmac("sha256", k).update(s).digest();
const rfc3986 = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** The SigV4 signature of a request as received (non-S3 rules: the path encoded once more). */
export function sigv4Signature(method: string, rawPath: string, headers: http.IncomingHttpHeaders, signed: string[], body: string, scope: { date: string; region: string; service: string }, amzDate: string, secret: string): string {
  const [pathPart, query = ""] = rawPath.split("?");
  const canonicalPath = rfc3986(pathPart!).replace(/%2F/g, "/");
  const canonicalQuery = query
    .split("&")
    .filter(Boolean)
    .map((kv) => kv.split("=").map((x) => rfc3986(decodeURIComponent(x))).join("="))
    .sort()
    .join("&");
  const canonicalHeaders = signed.map((h) => `${h}:${String(headers[h] ?? "").trim().replace(/\s+/g, " ")}\n`).join("");
  const canonical = [method, canonicalPath, canonicalQuery, canonicalHeaders, signed.join(";"), sha256(body)].join("\n");
  const credScope = `${scope.date}/${scope.region}/${scope.service}/aws4_request`;
  const toSign = ["AWS4-HMAC-SHA256", amzDate, credScope, sha256(canonical)].join("\n");
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, scope.date), scope.region), scope.service), "aws4_request");
  return crypto.createHmac("sha256", key).update(toSign).digest("hex");
}

/** The inner Anthropic error as Bedrock reports it over HTTP. */
function bedrockError(status: number, type: string, message: string): { status: number; name: string; message: string } {
  if (status === 429 || type === "rate_limit_error") return { status: 429, name: "ThrottlingException", message: "Too many requests, please wait before trying again." };
  if (status === 529 || type === "overloaded_error") return { status: 503, name: "ServiceUnavailableException", message: "Bedrock is unable to process your request." };
  if (status === 401 || status === 403) return { status: 403, name: "AccessDeniedException", message };
  if (status >= 500) return { status: 500, name: "InternalServerException", message };
  return { status: 400, name: "ValidationException", message };
}

export async function startFakeBedrock(opts: FakeBedrockOptions): Promise<FakeBedrockServer> {
  const inner = await startInner();
  const invocations: BedrockRecorded[] = [];
  const refusals: string[] = [];
  const codec = new EventStreamCodec(toUtf8, fromUtf8);
  const frame = (headers: Record<string, string>, payload: unknown) =>
    codec.encode({
      headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, { type: "string" as const, value: v }])),
      body: fromUtf8(JSON.stringify(payload)),
    });
  const chunk = (event: unknown) => frame({ ":event-type": "chunk", ":content-type": "application/json", ":message-type": "event" }, { bytes: Buffer.from(JSON.stringify(event)).toString("base64") });

  const refuse = (res: http.ServerResponse, status: number, name: string, why: string) => {
    refusals.push(why);
    sendJson(res, status, { message: why }, { "x-amzn-errortype": `${name}:http://internal.amazon.com/coral/com.amazon.bedrock/` });
  };

  const base = await startServer<Record<string, unknown>>(opts, async (req, res) => {
    const m = /^\/model\/([^/]+)\/invoke-with-response-stream$/.exec(req.path.split("?")[0]!);
    if (req.method !== "POST" || !m) return refuse(res, 404, "UnknownOperationException", `no route ${req.method} ${req.path}`);
    // a Bedrock API key instead of SigV4
    const bearer = String(req.headers.authorization ?? "");
    if (bearer.startsWith("Bearer ")) {
      if (opts.apiKey === undefined || bearer.slice(7) !== opts.apiKey) return refuse(res, 403, "UnrecognizedClientException", "Invalid API Key format: Must start with pre-defined prefix");
      return answer(req.body, m[1]!, req.path, req.headers, undefined, res);
    }
    // SigV4
    const auth = AUTH.exec(String(req.headers.authorization ?? ""));
    if (!auth) return refuse(res, 403, "IncompleteSignatureException", "no SigV4 Authorization header");
    const [, accessKeyId, date, region, service, signedList, signature] = auth as unknown as string[];
    const signed = signedList!.split(";");
    const amzDate = String(req.headers["x-amz-date"] ?? "");
    if (accessKeyId !== opts.accessKeyId) return refuse(res, 403, "UnrecognizedClientException", "The security token included in the request is invalid.");
    if (service !== "bedrock") return refuse(res, 403, "InvalidSignatureException", `credential scope names service '${service}', not bedrock`);
    if (region !== opts.region) return refuse(res, 403, "InvalidSignatureException", `credential scope names region '${region}', this endpoint is ${opts.region}`);
    if (!/^\d{8}T\d{6}Z$/.test(amzDate) || !amzDate.startsWith(date!)) return refuse(res, 403, "InvalidSignatureException", `x-amz-date '${amzDate}' does not match the scope's date ${date}`);
    if (Math.abs(Date.parse(amzDate.replace(/^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/, "$1-$2-$3T$4:$5:$6Z")) - Date.now()) > 5 * 60_000) return refuse(res, 403, "InvalidSignatureException", "Signature expired");
    for (const h of ["host", "x-amz-date", ...(opts.sessionToken ? ["x-amz-security-token"] : [])]) if (!signed.includes(h)) return refuse(res, 403, "InvalidSignatureException", `signed headers lack ${h}`);
    if (opts.sessionToken !== undefined && req.headers["x-amz-security-token"] !== opts.sessionToken) return refuse(res, 403, "UnrecognizedClientException", "The security token included in the request is invalid.");
    const expect = sigv4Signature(req.method, req.path, req.headers, signed, req.raw, { date: date!, region: region!, service: service! }, amzDate, opts.secretAccessKey);
    if (expect !== signature) return refuse(res, 403, "InvalidSignatureException", "The request signature we calculated does not match the signature you provided.");
    return answer(req.body, m[1]!, req.path, req.headers, { accessKeyId: accessKeyId!, date: date!, region: region!, service: service!, signedHeaders: signed }, res);
  });

  async function answer(body: Record<string, unknown>, rawModel: string, reqPath: string, headers: http.IncomingHttpHeaders, sigv4: BedrockRecorded["sigv4"], res: http.ServerResponse): Promise<void> {
    // the body: Anthropic's, with the version in it and the model in the path
    if (body.anthropic_version !== "bedrock-2023-05-31") return refuse(res, 400, "ValidationException", `anthropic_version is ${JSON.stringify(body.anthropic_version)}, expected bedrock-2023-05-31`);
    if ("model" in body || "stream" in body) return refuse(res, 400, "ValidationException", "extraneous key [model/stream] is not permitted");
    const model = decodeURIComponent(rawModel);
    invocations.push({ path: reqPath, model, headers, body, sigv4 });

    const { anthropic_version: _v, ...rest } = body;
    const reply = await relay(inner, { ...rest, model, stream: true }, res);
    if (reply.status !== 200) {
      const b = await reply.json();
      const e = (b.error ?? {}) as { type?: string; message?: string };
      const t = bedrockError(reply.status, e.type ?? "", e.message ?? "error");
      const headers: Record<string, string> = { "x-amzn-errortype": `${t.name}:http://internal.amazon.com/coral/com.amazon.bedrock/` };
      const ra = reply.headers.get("retry-after");
      if (ra) headers["retry-after"] = ra;
      return sendJson(res, t.status, { message: t.message }, headers);
    }
    res.writeHead(200, { "content-type": "application/vnd.amazon.eventstream", "x-amzn-requestid": crypto.randomUUID() });
    try {
      for await (const ev of reply.events()) {
        if (ev.event === "ping") continue; // Bedrock sends no pings
        if (ev.event === "error") {
          const e = (JSON.parse(ev.data) as { error?: { type?: string; message?: string } }).error ?? {};
          const name = e.type === "overloaded_error" ? "serviceUnavailableException" : "modelStreamErrorException";
          res.write(frame({ ":message-type": "exception", ":exception-type": name, ":content-type": "application/json" }, { message: e.message ?? "error" }));
          continue;
        }
        let parsed: unknown;
        try {
          parsed = JSON.parse(ev.data);
        } catch {
          parsed = undefined;
        }
        // a malformed inner event: a chunk whose bytes are not JSON
        res.write(parsed === undefined ? frame({ ":event-type": "chunk", ":content-type": "application/json", ":message-type": "event" }, { bytes: Buffer.from(ev.data).toString("base64") }) : chunk(parsed));
      }
      res.end();
    } catch {
      res.socket?.destroy(); // the inner connection dropped: so does this one
    }
  }
  const closeBase = base.close;
  return Object.defineProperties(base, {
    inner: { value: inner },
    invocations: { value: invocations },
    refusals: { value: refusals },
    close: {
      value: async () => {
        await inner.close();
        await closeBase();
      },
    },
  }) as FakeBedrockServer;
}

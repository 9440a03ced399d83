/**
 * bedrock/ and vertex/ in process: the real Bedrock and Vertex SDKs against the stand-ins (SigV4 and the
 * OAuth bearer token checked there), the provider conformance suite for both, a tool-using step, usage,
 * the region / credentials / auth failures and their messages.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeProviderContract, type ProviderScenario } from "../../engine/testing/index.js";
import { scenarioReply } from "../../../test/kit/fakes/scenario-reply.js";
import { createBedrockProvider } from "../provider.js";
import { createVertexProvider } from "../../vertex/provider.js";
import { startFakeBedrock, type FakeBedrockServer } from "../../../test/kit/fakes/bedrock-server.js";
import { startFakeVertex, type FakeVertexServer } from "../../../test/kit/fakes/vertex-server.js";
import type { AnthropicReply } from "../../../test/kit/fakes/anthropic-server.js";
import { bedrockModels } from "../models.js";
import { vertexModels } from "../../vertex/models.js";
import { type ModelNameEntry } from "../../engine/api.js";
import { ModelNames } from "../../engine/kit.js";
import { drain, failure, model, request, rows } from "../../../test/kit/providers-helpers.js";

const AWS = { accessKeyId: "AKIAFAKECLOUDTEST01", secretAccessKey: "cloud-test-secret-DO-NOT-LEAK", region: "eu-west-1" };
const GCP = { project: "oc-test-project", region: "europe-west1" };
const scenario = (s: ProviderScenario): AnthropicReply => scenarioReply(s);
const SONNET_BEDROCK = "eu.anthropic.claude-sonnet-4-5-20250929-v1:0";

const ALL_ERRORS = ["rate_limited", "overloaded", "server", "prompt_too_long", "auth", "network", "bad_request"] as const;

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "oc-cloud-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const bedrockEnv = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({ HOME: tmp, AWS_ACCESS_KEY_ID: AWS.accessKeyId, AWS_SECRET_ACCESS_KEY: AWS.secretAccessKey, AWS_REGION: AWS.region, ...extra });
const bedrock = (fake: FakeBedrockServer, env: () => NodeJS.ProcessEnv = () => bedrockEnv(), region?: string) =>
  createBedrockProvider({ places: () => ({ env: env(), region }), baseURL: () => fake.url, cacheTtl: () => "5m" });

function keyFile(fake: FakeVertexServer, name = "sa.json", json: unknown = fake.serviceAccountKey()): string {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, JSON.stringify(json));
  return file;
}
const vertex = (fake: FakeVertexServer, env: () => NodeJS.ProcessEnv) => createVertexProvider({ places: () => ({ env: env() }), baseURL: () => `${fake.url}/v1`, cacheTtl: () => "5m" });

describeProviderContract("bedrock (real Bedrock SDK, SigV4-checking stand-in)", async () => {
  const fake = await startFakeBedrock(AWS);
  return {
    provider: bedrock(fake),
    model: SONNET_BEDROCK,
    arrange(s) {
      fake.inner.reset();
      fake.inner.enqueue(scenario(s));
    },
    errors: [...ALL_ERRORS],
    close: () => fake.close(),
  };
});

describeProviderContract("vertex (real Vertex SDK, OAuth-checking stand-in)", async () => {
  const fake = await startFakeVertex(GCP);
  const file = keyFile(fake, "conformance-sa.json");
  return {
    provider: vertex(fake, () => ({ HOME: tmp, GOOGLE_APPLICATION_CREDENTIALS: file, CLOUD_ML_REGION: GCP.region })),
    model: "claude-sonnet-4-5@20250929",
    arrange(s) {
      fake.inner.reset();
      fake.inner.enqueue(scenario(s));
    },
    errors: [...ALL_ERRORS],
    close: () => fake.close(),
  };
});

describe("the manifests' model names", () => {
  const manifest = (id: string) => JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "..", "..", "..", "extensions", id, "manifest.json"), "utf8")) as { contributes: { providers: string[]; models: ModelNameEntry[] } };
  const catalogues = { bedrock: bedrockModels(), vertex: vertexModels() };
  for (const [id, catalogue] of Object.entries(catalogues)) {
    it(`${id}: the manifest lists exactly the catalogue's ids, and each resolves as written`, () => {
      const listed = manifest(id).contributes.models.map((m) => m.id);
      expect([...listed].sort()).toEqual(catalogue.map((m) => m.id).sort());
      const names = new ModelNames(manifest(id).contributes.providers, manifest(id).contributes.models);
      for (const m of listed) expect(names.resolve(m)).toMatchObject({ id: m, via: "full" });
    });
  }
});

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

describe("the same Messages mapping on both routes", () => {
  let b: FakeBedrockServer;
  let v: FakeVertexServer;
  beforeAll(async () => {
    [b, v] = await Promise.all([startFakeBedrock(AWS), startFakeVertex(GCP)]);
  });
  afterAll(() => Promise.all([b.close(), v.close()]));

  it("an attached image reaches each route as the same image block, and a refusal stops with reason refusal", async () => {
    const file = keyFile(v, "sa-same.json");
    const routes = [
      { p: bedrock(b), m: model("bedrock", SONNET_BEDROCK), inner: b.inner },
      { p: vertex(v, () => ({ HOME: tmp, GOOGLE_APPLICATION_CREDENTIALS: file, CLOUD_ML_REGION: GCP.region })), m: model("vertex", "claude-sonnet-4-5@20250929"), inner: v.inner },
    ];
    const sent: unknown[] = [];
    for (const r of routes) {
      r.inner.reset();
      r.inner.enqueue({ text: "I can't help with that.", stopReason: "refusal" });
      const user = { ...rows.user("what is in it?"), images: [{ mediaType: "image/png", data: PNG }] };
      const d = await drain(r.p, request(r.m, [user]));
      expect(d.stop).toBe("refusal");
      expect(d.text).toBe("I can't help with that.");
      const content = r.inner.requests[0]!.body.messages![0]!.content as Array<Record<string, unknown>>;
      expect(content.at(-1)).toMatchObject({ type: "image", source: { type: "base64", media_type: "image/png", data: PNG } });
      const { model: _m, ...body } = r.inner.requests[0]!.body;
      sent.push(body);
    }
    // the model aside, both routes sent the identical Messages body
    expect(JSON.stringify(sent[0])).toBe(JSON.stringify(sent[1]));
  });
});

describe("bedrock/<model id>", () => {
  let fake: FakeBedrockServer;
  beforeAll(async () => {
    fake = await startFakeBedrock({ ...AWS, sessionToken: "FQoGZXIvYXdzEFAKE-session" });
  });
  afterAll(() => fake.close());

  it("a tool-using step: SigV4 with the session token, InvokeModelWithResponseStream for the inference profile, the tool call, then usage", async () => {
    fake.inner.reset();
    fake.inner.enqueue({ text: "Reading.", toolCalls: [{ id: "toolu_b1", name: "read", input: { path: "a.txt" } }], usage: { input_tokens: 120, cache_read_input_tokens: 40, cache_creation_input_tokens: 7, output_tokens: 9 } }, { text: "It says hi." });
    const p = bedrock(fake, () => bedrockEnv({ AWS_SESSION_TOKEN: "FQoGZXIvYXdzEFAKE-session" }));
    const m = model("bedrock", SONNET_BEDROCK);
    const first = await drain(p, request(m, [rows.user("read a.txt")]));
    expect(first.text).toBe("Reading.");
    expect(first.calls).toEqual([{ id: "toolu_b1", name: "read", input: { path: "a.txt" } }]);
    expect(first.stop).toBe("tool_use");
    expect(first.usage).toEqual({ inputTokens: 120, outputTokens: 9, cacheReadTokens: 40, cacheWriteTokens: 7 });
    const second = await drain(p, request(m, [rows.user("read a.txt"), rows.assistant("Reading.", first.calls), rows.tool([{ callId: "toolu_b1", name: "read", content: "hi" }])]));
    expect(second.text).toBe("It says hi.");
    expect(second.stop).toBe("end_turn");
    expect(fake.refusals).toEqual([]);
    const [a, b] = fake.invocations;
    expect(a!.model).toBe(SONNET_BEDROCK);
    expect(a!.path).toBe(`/model/${SONNET_BEDROCK}/invoke-with-response-stream`);
    expect(a!.sigv4).toMatchObject({ accessKeyId: AWS.accessKeyId, region: "eu-west-1", service: "bedrock" });
    expect(a!.sigv4?.signedHeaders).toEqual(expect.arrayContaining(["host", "x-amz-date", "x-amz-security-token", "content-type"]));
    expect(a!.body.anthropic_version).toBe("bedrock-2023-05-31");
    // the Anthropic mapping, unchanged: cache markers, the tool result answering its call
    const last = (b!.body.messages as Array<{ content: Array<Record<string, unknown>> }>).at(-1)!.content;
    expect(last[0]).toMatchObject({ type: "tool_result", tool_use_id: "toolu_b1", content: "hi" });
    expect(last.at(-1)!.cache_control).toEqual({ type: "ephemeral" });
    expect(JSON.stringify(a!.body)).not.toContain(AWS.secretAccessKey);
    expect(JSON.stringify(a!.headers)).not.toContain(AWS.secretAccessKey);
  });

  it("credentials from AWS_PROFILE in ~/.aws/credentials, the region from that profile in ~/.aws/config", async () => {
    const home = fs.mkdtempSync(path.join(tmp, "home-"));
    fs.mkdirSync(path.join(home, ".aws"));
    fs.writeFileSync(path.join(home, ".aws", "credentials"), `[default]\naws_access_key_id = AKIAWRONGDEFAULT\naws_secret_access_key = nope\n\n[work]\naws_access_key_id = ${AWS.accessKeyId}\naws_secret_access_key = ${AWS.secretAccessKey}\naws_session_token = FQoGZXIvYXdzEFAKE-session\n`);
    fs.writeFileSync(path.join(home, ".aws", "config"), "[default]\nregion = us-east-1\n\n[profile work]\nregion = eu-west-1\n");
    fake.inner.reset();
    // the AWS SDK's chain reads the files through process.env: point it at this HOME for the call
    const saved = { HOME: process.env.HOME, AWS_SHARED_CREDENTIALS_FILE: process.env.AWS_SHARED_CREDENTIALS_FILE, AWS_CONFIG_FILE: process.env.AWS_CONFIG_FILE };
    process.env.AWS_SHARED_CREDENTIALS_FILE = path.join(home, ".aws", "credentials");
    process.env.AWS_CONFIG_FILE = path.join(home, ".aws", "config");
    try {
      const p = bedrock(fake, () => ({ HOME: home, AWS_PROFILE: "work", AWS_EC2_METADATA_DISABLED: "true" }));
      const d = await drain(p, request(model("bedrock", SONNET_BEDROCK), [rows.user("hello")]));
      expect(d.text).toBe("ok: hello");
      expect(fake.invocations.at(-1)!.sigv4?.region).toBe("eu-west-1");
    } finally {
      for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });

  it("a Bedrock API key (AWS_BEARER_TOKEN_BEDROCK) is sent as a bearer token instead of signing", async () => {
    const keyed = await startFakeBedrock({ ...AWS, apiKey: "ABSKbedrock-api-key-canary" });
    try {
      const p = bedrock(keyed, () => ({ HOME: tmp, AWS_REGION: AWS.region, AWS_BEARER_TOKEN_BEDROCK: "ABSKbedrock-api-key-canary" }));
      const d = await drain(p, request(model("bedrock", SONNET_BEDROCK), [rows.user("keyed")]));
      expect(d.text).toBe("ok: keyed");
      expect(keyed.invocations[0]!.sigv4).toBeUndefined();
      expect(keyed.invocations[0]!.headers.authorization).toBe("Bearer ABSKbedrock-api-key-canary");
    } finally {
      await keyed.close();
    }
  });

  it("no region anywhere: ready() and the stream say which variables and keys would name one", async () => {
    const p = bedrock(fake, () => ({ HOME: tmp, AWS_ACCESS_KEY_ID: AWS.accessKeyId, AWS_SECRET_ACCESS_KEY: AWS.secretAccessKey }));
    expect(p.ready?.()).toMatchObject({ code: "auth", message: expect.stringMatching(/no AWS region.*AWS_REGION.*AWS_DEFAULT_REGION.*provider\.bedrock\.region/) });
    const e = await failure(p, request(model("bedrock", SONNET_BEDROCK), [rows.user("x")]));
    expect(e.code).toBe("auth");
  });

  it("a wrong secret: the stand-in refuses the signature, the error is auth and names the credentials to check", async () => {
    fake.inner.reset();
    const before = fake.invocations.length;
    const p = bedrock(fake, () => bedrockEnv({ AWS_SECRET_ACCESS_KEY: "a-wrong-secret", AWS_SESSION_TOKEN: "FQoGZXIvYXdzEFAKE-session" }));
    const e = await failure(p, request(model("bedrock", SONNET_BEDROCK), [rows.user("x")]));
    expect(e.code).toBe("auth");
    expect(e.status).toBe(403);
    expect(e.message).toMatch(/^Amazon Bedrock 403: The request signature we calculated does not match/);
    expect(e.message).toContain("AWS_ACCESS_KEY_ID");
    expect(e.message).not.toContain("a-wrong-secret");
    expect(fake.invocations.length).toBe(before);
  });

  it("a mid-stream throttling exception frame is rate_limited; ServiceUnavailable over HTTP is overloaded (both retried by the engine)", async () => {
    const p = bedrock(fake, () => bedrockEnv({ AWS_SESSION_TOKEN: "FQoGZXIvYXdzEFAKE-session" }));
    fake.inner.reset();
    fake.inner.enqueue({ type: "stream_error", errorType: "overloaded_error", text: "half" });
    const mid = await failure(p, request(model("bedrock", SONNET_BEDROCK), [rows.user("x")]));
    expect(mid.code).toBe("overloaded");
    expect(mid.partial).toBe("half");
    fake.inner.enqueue({ type: "error", status: 429, headers: { "retry-after": "2" } });
    const http = await failure(p, request(model("bedrock", SONNET_BEDROCK), [rows.user("x")]));
    expect(http).toMatchObject({ code: "rate_limited", status: 429, retryAfterMs: 2000 });
  });

  it("describes any Bedrock id of a catalogued model with that model's window and prices", () => {
    const p = bedrock(fake);
    expect(p.describe?.("us.anthropic.claude-haiku-4-5-20251001-v1:0")).toMatchObject({ provider: "bedrock", contextWindow: 200_000, price: { input: 1, output: 5 } });
    expect(p.describe?.("apac.anthropic.claude-sonnet-4-20250514-v1:0")).toMatchObject({ maxOutputTokens: 64_000 });
    expect(p.models?.().map((m) => m.id)).toContain("bedrock/eu.anthropic.claude-sonnet-4-5-20250929-v1:0");
  });
});

describe("vertex/<model>", () => {
  let fake: FakeVertexServer;
  beforeAll(async () => {
    fake = await startFakeVertex(GCP);
  });
  afterAll(() => fake.close());

  it("a tool-using step: the bearer token the token stand-in issued for the key's token_uri, the project from the key, streamRawPredict", async () => {
    fake.inner.reset();
    const file = keyFile(fake, "sa-tool.json");
    fake.inner.enqueue({ text: "Reading.", toolCalls: [{ id: "toolu_v1", name: "read", input: { path: "b.txt" } }] }, { text: "Done." });
    const p = vertex(fake, () => ({ HOME: tmp, GOOGLE_APPLICATION_CREDENTIALS: file, CLOUD_ML_REGION: GCP.region }));
    const m = model("vertex", "claude-sonnet-4-5@20250929");
    const first = await drain(p, request(m, [rows.user("read b.txt")]));
    expect(first.calls).toEqual([{ id: "toolu_v1", name: "read", input: { path: "b.txt" } }]);
    expect(first.stop).toBe("tool_use");
    const u = first.usage!;
    expect(u.inputTokens + u.cacheWriteTokens + u.cacheReadTokens).toBeGreaterThan(0);
    expect(first.usage!.outputTokens).toBeGreaterThan(0);
    const second = await drain(p, request(m, [rows.user("read b.txt"), rows.assistant("Reading.", first.calls), rows.tool([{ callId: "toolu_v1", name: "read", content: "data" }])]));
    expect(second.text).toBe("Done.");
    expect(fake.refusals).toEqual([]);
    expect(fake.issued).toHaveLength(1); // one token, reused until it nears expiry
    const [a, b] = fake.predictions;
    expect(a!.headers.authorization).toBe(`Bearer ${fake.issued[0]}`);
    expect(a!.path).toBe(`/v1/projects/${GCP.project}/locations/${GCP.region}/publishers/anthropic/models/claude-sonnet-4-5@20250929:streamRawPredict`);
    expect(a!.body.anthropic_version).toBe("vertex-2023-10-16");
    expect(b!.headers.authorization).toBe(`Bearer ${fake.issued[0]}`);
    expect(JSON.stringify([a!.body, a!.headers])).not.toContain("PRIVATE KEY");
  });

  it("gcloud's ADC file (authorized_user) under HOME; ANTHROPIC_VERTEX_PROJECT_ID wins over its quota project", async () => {
    const home = fs.mkdtempSync(path.join(tmp, "gh-"));
    fs.mkdirSync(path.join(home, ".config", "gcloud"), { recursive: true });
    fs.writeFileSync(path.join(home, ".config", "gcloud", "application_default_credentials.json"), JSON.stringify({ ...fake.userCredentials(), quota_project_id: "someone-else" }));
    fake.inner.reset();
    const p = vertex(fake, () => ({ HOME: home, ANTHROPIC_VERTEX_PROJECT_ID: GCP.project, CLOUD_ML_REGION: GCP.region }));
    const d = await drain(p, request(model("vertex", "claude-haiku-4-5@20251001"), [rows.user("hey")]));
    expect(d.text).toBe("ok: hey");
    expect(fake.predictions.at(-1)!.headers.authorization).toBe(`Bearer ${fake.issued.at(-1)}`);
  });

  it("a revoked key: the token endpoint's refusal is an auth error naming the file and how to fix it", async () => {
    const file = keyFile(fake, "sa-revoked.json");
    fake.revoke(true);
    try {
      const before = fake.predictions.length;
      const p = vertex(fake, () => ({ HOME: tmp, GOOGLE_APPLICATION_CREDENTIALS: file, CLOUD_ML_REGION: GCP.region }));
      const e = await failure(p, request(model("vertex", "claude-sonnet-4-5@20250929"), [rows.user("x")]));
      expect(e.code).toBe("auth");
      expect(e.message).toContain(`Google refused the credentials in ${file} (invalid_grant: Invalid JWT Signature.)`);
      expect(e.message).toContain("gcloud auth application-default login");
      expect(e.message).not.toContain("PRIVATE KEY");
      expect(fake.predictions.length).toBe(before);
    } finally {
      fake.revoke(false);
    }
  });

  it("a missing key file, no region, no project: each says what is missing", async () => {
    const missing = path.join(tmp, "nope.json");
    const noFile = vertex(fake, () => ({ HOME: tmp, GOOGLE_APPLICATION_CREDENTIALS: missing, CLOUD_ML_REGION: GCP.region }));
    const e1 = await failure(noFile, request(model("vertex", "claude-sonnet-4-5@20250929"), [rows.user("x")]));
    expect(e1).toMatchObject({ code: "auth", message: expect.stringContaining(`${missing} (from GOOGLE_APPLICATION_CREDENTIALS): no such file`) });
    expect(noFile.ready?.()).toMatchObject({ code: "auth", message: e1.message }); // known before a prompt is recorded
    const noRegion = vertex(fake, () => ({ HOME: tmp, GOOGLE_APPLICATION_CREDENTIALS: keyFile(fake) }));
    expect(noRegion.ready?.()).toMatchObject({ code: "auth", message: expect.stringContaining("CLOUD_ML_REGION") });
    const { project_id: _p, ...noProjectKey } = fake.serviceAccountKey();
    const noProject = vertex(fake, () => ({ HOME: tmp, GOOGLE_APPLICATION_CREDENTIALS: keyFile(fake, "sa-np.json", noProjectKey), CLOUD_ML_REGION: GCP.region }));
    const e3 = await failure(noProject, request(model("vertex", "claude-sonnet-4-5@20250929"), [rows.user("x")]));
    expect(e3).toMatchObject({ code: "auth", message: expect.stringContaining("ANTHROPIC_VERTEX_PROJECT_ID") });
  });

  it("a bearer token the stand-in never issued is refused as auth (the stand-in checks it)", async () => {
    const r = await fetch(`${fake.url}/v1/projects/${GCP.project}/locations/${GCP.region}/publishers/anthropic/models/claude-sonnet-4-5@20250929:streamRawPredict`, {
      method: "POST",
      headers: { authorization: "Bearer ya29.made-up", "content-type": "application/json" },
      body: JSON.stringify({ anthropic_version: "vertex-2023-10-16", max_tokens: 1, messages: [] }),
    });
    expect(r.status).toBe(401);
  });
});

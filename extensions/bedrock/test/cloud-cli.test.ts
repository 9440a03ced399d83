/**
 * `oceancode run --model bedrock/… | vertex/…` end to end: the compiled CLI, the real Bedrock and Vertex
 * SDKs, the stand-ins checking SigV4 and the OAuth bearer token. A tool-using turn on each with usage in
 * the step events; the credentials (canaries) nowhere in what oceancode writes: stdout, stderr, the data
 * and state directories (database, logs), the request bodies; an auth failure's message on each.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeSandbox, runCliAsync, type Sandbox } from "../../../test/kit/cli.js";
import { startFakeBedrock, type FakeBedrockServer } from "../../../test/kit/fakes/bedrock-server.js";
import { startFakeVertex, type FakeVertexServer } from "../../../test/kit/fakes/vertex-server.js";

const AWS = { accessKeyId: "AKIACANARYCLI000001", secretAccessKey: "canary-aws-secret-9f8e7d", sessionToken: "canary-aws-session-5c4b3a", region: "us-west-2" };
const GCP = { project: "oc-cli-project", region: "us-east5" };

let bedrock: FakeBedrockServer;
let vertex: FakeVertexServer;
let sb: Sandbox;
let keyFile: string;
let privateKeyLine: string;

beforeAll(async () => {
  [bedrock, vertex] = await Promise.all([startFakeBedrock(AWS), startFakeVertex(GCP)]);
  sb = makeSandbox("oc-cloud-cli-");
  sb.write("notes.txt", "the secret word is kelp\n");
  const key = vertex.serviceAccountKey();
  keyFile = sb.write("gcp/sa.json", JSON.stringify(key), "home");
  // one line of the PEM body: the private key must appear nowhere either
  privateKeyLine = key.private_key!.split("\n")[5]!;
});
afterAll(async () => {
  await Promise.all([bedrock.close(), vertex.close()]);
  sb.cleanup();
});

const bedrockEnv = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
  ...sb.env,
  OC_RETRY_BASE_MS: "10",
  AWS_ACCESS_KEY_ID: AWS.accessKeyId,
  AWS_SECRET_ACCESS_KEY: AWS.secretAccessKey,
  AWS_SESSION_TOKEN: AWS.sessionToken,
  AWS_REGION: AWS.region,
  AWS_EC2_METADATA_DISABLED: "true",
  ANTHROPIC_BEDROCK_BASE_URL: bedrock.url,
  ...extra,
});
const vertexEnv = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
  ...sb.env,
  OC_RETRY_BASE_MS: "10",
  GOOGLE_APPLICATION_CREDENTIALS: keyFile,
  CLOUD_ML_REGION: GCP.region,
  ANTHROPIC_VERTEX_BASE_URL: `${vertex.url}/v1`,
  ...extra,
});
const run = (model: string, env: NodeJS.ProcessEnv, prompt: string) => runCliAsync(["run", "--auto", "--model", model, "--format", "json", prompt], { cwd: sb.project, env });

interface Ev {
  type: string;
  text?: string;
  usage?: { inputTokens: number; outputTokens: number; cacheReadTokens: number; cacheWriteTokens: number };
}
const events = (stdout: string): Ev[] => stdout.trim().split("\n").filter(Boolean).map((l) => JSON.parse(l) as Ev);

/** Every file under dir (the DB, logs, transcripts), minus the credentials the test itself wrote. */
function writtenFiles(dir: string, skip: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const p = path.join(e.parentPath, e.name);
    if (e.isFile() && p !== skip) out.push(p);
  }
  return out;
}
function expectAbsent(canaries: string[], texts: Array<[string, string]>): void {
  for (const [where, text] of texts) for (const c of canaries) expect(text.includes(c), `${c} in ${where}`).toBe(false);
}

describe("oceancode run on the cloud routes", () => {
  it("bedrock: a tool-using turn, usage per step, SigV4 on both requests, no credential anywhere oceancode wrote", async () => {
    bedrock.inner.enqueue({ text: "Let me read it.", toolCalls: [{ id: "toolu_c1", name: "read", input: { file_path: "notes.txt" } }] }, { text: "The word is kelp." });
    const r = await run("bedrock/us.anthropic.claude-sonnet-4-5-20250929-v1:0", bedrockEnv(), "what is the word?");
    expect(r.code, r.stderr).toBe(0);
    const ev = events(r.stdout);
    expect(ev.filter((e) => e.type === "text_delta").map((e) => e.text).join("")).toContain("The word is kelp.");
    const steps = ev.filter((e) => e.type === "step_end");
    expect(steps).toHaveLength(2);
    for (const s of steps) expect(s.usage!.outputTokens).toBeGreaterThan(0);
    expect(steps[1]!.usage!.cacheReadTokens).toBeGreaterThan(0); // the markers work on this route too
    expect(bedrock.refusals).toEqual([]);
    expect(bedrock.invocations.map((i) => [i.model, i.sigv4?.region, i.sigv4?.service])).toEqual([
      ["us.anthropic.claude-sonnet-4-5-20250929-v1:0", AWS.region, "bedrock"],
      ["us.anthropic.claude-sonnet-4-5-20250929-v1:0", AWS.region, "bedrock"],
    ]);
    const second = JSON.stringify(bedrock.invocations[1]!.body);
    expect(second).toContain("the secret word is kelp");
    const files = writtenFiles(sb.home, keyFile).map((f): [string, string] => [f, fs.readFileSync(f, "latin1")]);
    expect(files.length).toBeGreaterThan(0);
    expectAbsent([AWS.secretAccessKey, AWS.sessionToken], [["stdout", r.stdout], ["stderr", r.stderr], ...files, ...bedrock.invocations.map((i, n): [string, string] => [`request ${n} body`, JSON.stringify(i.body)])]);
  });

  it("vertex: a tool-using turn, usage per step, the issued bearer token on both requests, no credential anywhere oceancode wrote", async () => {
    vertex.inner.enqueue({ text: "Reading.", toolCalls: [{ id: "toolu_c2", name: "read", input: { file_path: "notes.txt" } }] }, { text: "It is kelp." });
    const r = await run("vertex/claude-sonnet-4-5@20250929", vertexEnv(), "the word?");
    expect(r.code, r.stderr).toBe(0);
    const ev = events(r.stdout);
    expect(ev.filter((e) => e.type === "text_delta").map((e) => e.text).join("")).toContain("It is kelp.");
    const steps = ev.filter((e) => e.type === "step_end");
    expect(steps).toHaveLength(2);
    for (const s of steps) expect(s.usage!.outputTokens).toBeGreaterThan(0);
    expect(vertex.refusals).toEqual([]);
    expect(vertex.issued).toHaveLength(1);
    expect(vertex.predictions.map((p) => p.headers.authorization)).toEqual([`Bearer ${vertex.issued[0]}`, `Bearer ${vertex.issued[0]}`]);
    expect(vertex.predictions[0]!.path).toContain(`/projects/${GCP.project}/locations/${GCP.region}/`);
    const files = writtenFiles(sb.home, keyFile).map((f): [string, string] => [f, fs.readFileSync(f, "latin1")]);
    expectAbsent([vertex.issued[0]!, privateKeyLine], [["stdout", r.stdout], ["stderr", r.stderr], ...files, ...vertex.predictions.map((p, n): [string, string] => [`request ${n} body`, JSON.stringify(p.body)])]);
  });

  it("auth failures: a wrong AWS secret and a revoked Google key each end the turn with one clear line, exit 1, no retry storm", async () => {
    const nb = bedrock.invocations.length;
    const refusedBefore = bedrock.refusals.length;
    vertex.revoke(true);
    const [b, v] = await Promise.all([run("bedrock/anthropic.claude-haiku-4-5-20251001-v1:0", bedrockEnv({ AWS_SECRET_ACCESS_KEY: "wrong-secret-canary-1" }), "hi"), run("vertex/claude-haiku-4-5@20251001", vertexEnv(), "hi")]);
    vertex.revoke(false);
    expect(b.code).toBe(1);
    // --format json: the error is an event on stdout
    expect(b.stdout).toMatch(/Amazon Bedrock 403: The request signature we calculated does not match/);
    expect(b.stdout).toContain("AWS_ACCESS_KEY_ID");
    expect(b.stderr + b.stdout).not.toContain("wrong-secret-canary-1");
    expect(bedrock.invocations.length).toBe(nb);
    expect(bedrock.refusals.length - refusedBefore).toBe(1); // auth is not retried
    expect(v.code).toBe(1);
    expect(v.stdout).toContain(`Google refused the credentials in ${keyFile} (invalid_grant: Invalid JWT Signature.)`);
    expect(v.stdout).toContain("gcloud auth application-default login");
  });

  it("no region: bedrock refuses before recording the prompt, naming AWS_REGION and provider.bedrock.region", async () => {
    // no config file either, whichever tests wrote ~/.aws before
    const env = bedrockEnv({ AWS_CONFIG_FILE: path.join(sb.home, "no-such-aws-config") });
    delete env.AWS_REGION;
    const n = bedrock.invocations.length + bedrock.refusals.length;
    const r = await run("bedrock/anthropic.claude-haiku-4-5-20251001-v1:0", env, "hi");
    expect(r.code).toBe(1);
    expect(r.stdout).not.toContain('"type":"session"'); // no session was made for a prompt that could not be sent
    expect(bedrock.invocations.length + bedrock.refusals.length).toBe(n);
    expect(r.stderr).toMatch(/no AWS region for Amazon Bedrock: set AWS_REGION \(or AWS_DEFAULT_REGION\), provider\.bedrock\.region/);
  });
  it("bedrock with AWS_PROFILE: the bundled AWS credential chain reads ~/.aws/credentials, the region comes from ~/.aws/config", async () => {
    sb.write(".aws/credentials", `[default]\naws_access_key_id = AKIAWRONGDEFAULT0001\naws_secret_access_key = wrong\n\n[ci]\naws_access_key_id = ${AWS.accessKeyId}\naws_secret_access_key = ${AWS.secretAccessKey}\naws_session_token = ${AWS.sessionToken}\n`, "home");
    sb.write(".aws/config", `[default]\nregion = eu-central-1\n\n[profile ci]\nregion = ${AWS.region}\n`, "home");
    const env = bedrockEnv({ AWS_PROFILE: "ci" });
    for (const k of ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_REGION"]) delete env[k];
    const n = bedrock.invocations.length;
    const r = await run("bedrock/anthropic.claude-haiku-4-5-20251001-v1:0", env, "profile?");
    expect(r.code, r.stderr + r.stdout).toBe(0);
    expect(bedrock.invocations.length).toBe(n + 1);
    expect(bedrock.invocations.at(-1)!.sigv4).toMatchObject({ accessKeyId: AWS.accessKeyId, region: AWS.region });
    expect(r.stdout + r.stderr).not.toContain(AWS.secretAccessKey);
  });

  it("vertex on Google Cloud: no ADC file, the metadata server's token and project (the bundled google-auth-library path)", async () => {
    const env = vertexEnv({ GCE_METADATA_HOST: vertex.url.replace("http://", ""), METADATA_SERVER_DETECTION: "ping-only" });
    delete env.GOOGLE_APPLICATION_CREDENTIALS;
    const n = vertex.predictions.length;
    const r = await run("vertex/claude-haiku-4-5@20251001", env, "from gce");
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(vertex.predictions.length).toBe(n + 1);
    const last = vertex.predictions.at(-1)!;
    expect(last.headers.authorization).toBe(`Bearer ${vertex.issued.at(-1)}`);
    expect(vertex.issued.at(-1)).toMatch(/^ya29\.metadata-/);
    expect(last.path).toContain(`/projects/${GCP.project}/`);
    expect(vertex.metadataHits).toContain("/computeMetadata/v1/instance/service-accounts/default/token");
  });
});

/**
 * The shared redactor (oceancode/api/obs): URL credentials, the values of secret-looking environment
 * variables (the child environment's name rules) and API key shapes become ***; what says which host,
 * user or variable is meant stays. storage-postgres's redactUrl is this one implementation.
 */
import { describe, expect, it } from "vitest";
import { REDACTED } from "../api.js";
import { redact, redactorFor, redactUrl, secretName } from "../kit.js";
import { redactUrl as pgRedactUrl, redactText } from "../../storage-postgres/kit.js";
import { secretName as childEnvSecretName } from "../../child-env/env.js";

describe("redact", () => {
  it("URL passwords: scheme://user:pw@host and password= parameters; user, host and path stay", () => {
    expect(redact("connect postgres://bob:hunter2-secret@db.example:5432/app failed", {})).toBe("connect postgres://bob:***@db.example:5432/app failed");
    // a path normalised from a URL keeps one slash: the password still goes
    expect(redact("read /work/p/https:/ops:pw-secret-9@host/x: no such file", {})).toBe("read /work/p/https:/ops:***@host/x: no such file");
    expect(redact("https://u:p%40ss@example.com/x and redis://:pw123456@cache/0", {})).toBe("https://u:***@example.com/x and redis://:***@cache/0");
    expect(redact("host=db password=s3cr3t-value sslpassword=other user=bob", {})).toBe("host=db password=*** sslpassword=*** user=bob");
    expect(redact("https://example.com/no/credentials", {})).toBe("https://example.com/no/credentials");
  });

  it("key shapes: sk-ant-, sk-, AKIA, ghp_/github_pat_, Bearer tokens, x-api-key headers", () => {
    const cases: Array<[string, string]> = [
      ["key sk-ant-api03-AbCdEf0123456789xyz end", "key *** end"],
      ["openai sk-proj-0123456789abcdefABCDEF", "openai ***"],
      ["aws AKIAIOSFODNN7EXAMPLE id", "aws *** id"],
      ["gh ghp_0123456789abcdefghijABCDEFGHIJ and github_pat_11ABCDEFG0123456789_abcdefghijkl", "gh *** and ***"],
      ["Authorization: Bearer eyJhbGciOi.payload.sig", "Authorization: Bearer ***"],
      ["x-api-key: abc123def456", "x-api-key: ***"],
      ['{"x-api-key":"abc123def456"}', '{"x-api-key":"***"}'],
    ];
    for (const [input, out] of cases) expect(redact(input, {}), input).toBe(out);
    // short words that merely start like a key are left alone
    expect(redact("ask-me sk-1 task-list", {})).toBe("ask-me sk-1 task-list");
  });

  it("environment values of secret-looking names (and URL values with a password), longest first; short values are not redacted by value", () => {
    const env = { MY_SERVICE_TOKEN: "tok-aaaaaaaaaaaa", MY_SERVICE_TOKEN_LONG: "tok-aaaaaaaaaaaa-bbbb", PGPASSWORD: "pg pass/with space", DATABASE: "postgres://u:pw12345678@h/db", AUTH: "1", HOME: "/home/someone-long" };
    const r = redactorFor(env);
    expect(r("a tok-aaaaaaaaaaaa-bbbb b tok-aaaaaaaaaaaa c")).toBe("a *** b *** c");
    expect(r("pw pg pass/with space and pg%20pass%2Fwith%20space")).toBe("pw *** and ***");
    expect(r("db postgres://u:pw12345678@h/db")).toBe("db ***");
    expect(r("1 and /home/someone-long stay")).toBe("1 and /home/someone-long stay");
    expect(REDACTED).toBe("***");
  });

  it("one implementation: storage-postgres's redactUrl is the shared one, redactText still hides the literal password; child-env's name rule is the shared predicate", () => {
    expect(pgRedactUrl).toBe(redactUrl);
    expect(redactText("auth failed for pw: Secret-Pw-1", "postgres://bob:Secret-Pw-1@db/app")).toBe("auth failed for pw: ***");
    expect(childEnvSecretName).toBe(secretName);
    expect(["ANTHROPIC_API_KEY", "GHTOKEN", "PGPASSWORD", "MYSQL_PWD", "SESSION_COOKIE"].every(secretName)).toBe(true);
    expect(["PWD", "OLDPWD", "PATH", "SSH_AUTH_SOCK", "XDG_SESSION_ID"].some(secretName)).toBe(false);
  });
});

describe("examples/operations/obs-logging.jsonc", () => {
  it("is a valid obs section (the schema the kernel validates it with)", async () => {
    const fs = await import("node:fs");
    const { parseJsonc } = await import("../../../kernel/jsonc.js");
    const { compileSchema } = await import("../../../kernel/schema.js");
    const doc = parseJsonc(fs.readFileSync(new URL("../../../examples/operations/obs-logging.jsonc", import.meta.url), "utf8")).value as { obs: unknown };
    const schema = JSON.parse(fs.readFileSync(new URL("../config.schema.json", import.meta.url), "utf8")) as object;
    const ok = compileSchema("test:obs", schema);
    expect(ok(doc.obs), JSON.stringify(ok.errors)).toBe(true);
    expect(doc.obs).toMatchObject({ log_level: "debug", log_rotate_bytes: 10485760, log_keep: 5 });
  });
});

import { describe, it, expect } from "vitest";
import { spawnSync } from "node:child_process";
import { composeEnv } from "../../child-env/env.js";

describe("child environment", () => {
  const parent = { PATH: process.env.PATH ?? "", HOME: "/h", ANTHROPIC_API_KEY: "sk-1", GITHUB_TOKEN: "t", my_secret: "s", KEYRING: "k", AWS_REGION: "eu", PASSWORD: "p", GPG_KEY_ID: "g" };
  it("strips names containing KEY, SECRET, TOKEN in any case (and PASSWORD, issue 27), as seen from inside a real child", () => {
    const env = composeEnv(parent);
    const r = spawnSync(process.execPath, ["-e", "process.stdout.write(JSON.stringify(Object.keys(process.env).sort()))"], { env, encoding: "utf8" });
    const seen = JSON.parse(r.stdout) as string[];
    expect(seen).toContain("AWS_REGION");
    for (const gone of ["ANTHROPIC_API_KEY", "GITHUB_TOKEN", "my_secret", "KEYRING", "GPG_KEY_ID", "PASSWORD"]) expect(seen).not.toContain(gone);
  });
  it("child_env strip / keep / set tune it", () => {
    const env = composeEnv(parent, { strip: ["AWS_*", "*word"], keep: ["GPG_KEY_ID"], set: { OC_CHILD: "1" } });
    const r = spawnSync(process.execPath, ["-e", "process.stdout.write(JSON.stringify(process.env))"], { env, encoding: "utf8" });
    const seen = JSON.parse(r.stdout) as Record<string, string>;
    expect(seen.AWS_REGION).toBeUndefined();
    expect(seen.PASSWORD).toBeUndefined();
    expect(seen.GPG_KEY_ID).toBe("g");
    expect(seen.OC_CHILD).toBe("1");
    expect(seen.GITHUB_TOKEN).toBeUndefined();
  });
});

/** The reach lint on the repo (zero problems), and on planted deep kernel imports (the exact problems). */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../kit/cli.js";
import { checkReach, formatReach } from "./reach.js";

const tmp: string[] = [];
afterEach(() => {
  for (const d of tmp.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function write(root: string, rel: string, text: string): void {
  const f = path.join(root, rel);
  fs.mkdirSync(path.dirname(f), { recursive: true });
  fs.writeFileSync(f, text);
}

describe("reach lint", () => {
  it("reports zero problems on the repo", () => {
    const problems = checkReach(REPO_ROOT).map(formatReach);
    expect(problems, problems.join("\n")).toEqual([]);
  });

  it("refuses deep kernel imports from extensions and hosts; allows kernel/api, the bootstrap, and a host's API names from their module", () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "oc-reach-"));
    tmp.push(root);
    write(root, "kernel/api.ts", `export const ok = 1;\nexport { visible, type VisibleOptions } from "./safe-output.js";\n`);
    write(
      root,
      "extensions/app/index.ts",
      [
        `import { ok } from "../../kernel/api.js";`,
        `import type { Tier } from "../../kernel/walk.js";`,
        `export { parseJsonc } from "../../kernel/jsonc.js";`,
        `export type W = import("../../kernel/walk.js").Root;`,
        `const later = () => import("oceancode/kernel/schema");`,
        `import { x } from "oceancode/kernel";`,
        `export const y = [ok, later, x] as unknown as Tier;`,
        ``,
      ].join("\n"),
    );
    write(root, "extensions/app/test/deep.test.ts", `import { DiscoveryWalk } from "../../../kernel/walk.js";\nexport const w = DiscoveryWalk;\n`);
    write(root, "hosts/boot.ts", `import { Kernel } from "../kernel/kernel.js";\nimport { resolvePaths } from "../kernel/paths.js";\nimport { loadConfig } from "../kernel/config.js";\nexport { Kernel, resolvePaths, loadConfig };\n`);
    write(
      root,
      "hosts/run/main.ts",
      `import type { Kernel } from "../../kernel/kernel.js";\nimport { visible, type VisibleOptions } from "../../kernel/safe-output.js";\nimport { visible as v2, hasControls } from "../../kernel/safe-output.js";\nexport type K = [Kernel, VisibleOptions];\nexport const f = [visible, v2, hasControls];\n`,
    );
    write(root, "extensions/app/out.ts", `import { visible } from "../../kernel/safe-output.js";\nexport const f = visible;\n`);
    expect(checkReach(root).map(formatReach)).toEqual([
      `extensions/app/index.ts:2: [reach] import "../../kernel/walk.js" reaches into the kernel (kernel/walk.ts), past its published entry oceancode/kernel: import it from "../../kernel/api.js" (export it from kernel/api.ts if it is not there yet)`,
      `extensions/app/index.ts:3: [reach] import "../../kernel/jsonc.js" reaches into the kernel (kernel/jsonc.ts), past its published entry oceancode/kernel: import it from "../../kernel/api.js" (export it from kernel/api.ts if it is not there yet)`,
      `extensions/app/index.ts:4: [reach] import "../../kernel/walk.js" reaches into the kernel (kernel/walk.ts), past its published entry oceancode/kernel: import it from "../../kernel/api.js" (export it from kernel/api.ts if it is not there yet)`,
      `extensions/app/index.ts:5: [reach] import "oceancode/kernel/schema" reaches into the kernel (kernel/schema.ts), past its published entry oceancode/kernel: import it from "../../kernel/api.js" (export it from kernel/api.ts if it is not there yet)`,
      `extensions/app/out.ts:1: [reach] import "../../kernel/safe-output.js" reaches into the kernel (kernel/safe-output.ts), past its published entry oceancode/kernel: import it from "../../kernel/api.js" (export it from kernel/api.ts if it is not there yet)`,
      `hosts/boot.ts:3: [reach] import "../kernel/config.js" reaches into the kernel (kernel/config.ts), past its published entry oceancode/kernel: import it from "../kernel/api.js" (export it from kernel/api.ts if it is not there yet); kernel/api.ts does not re-export loadConfig from it`,
      `hosts/run/main.ts:1: [reach] import "../../kernel/kernel.js" reaches into the kernel (kernel/kernel.ts), past its published entry oceancode/kernel: import it from "../../kernel/api.js" (export it from kernel/api.ts if it is not there yet); kernel/api.ts does not re-export Kernel from it`,
      `hosts/run/main.ts:3: [reach] import "../../kernel/safe-output.js" reaches into the kernel (kernel/safe-output.ts), past its published entry oceancode/kernel: import it from "../../kernel/api.js" (export it from kernel/api.ts if it is not there yet); kernel/api.ts does not re-export hasControls from it`,
    ]);
  });
});

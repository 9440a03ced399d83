/** The capabilities picker's pure model: grouping, Space at each level, counts, `[off]` headers, safe text. */
import { describe, expect, it } from "vitest";
import { countsText, pluginRows, rowText, skillRows, spaceActions, trustAction, type CapData, type CapPlugin, type CapRow, type CapSkill } from "../capabilities-model.js";
import { applyCapabilities, readCapabilities } from "../capabilities-source.js";

const sk = (name: string, tier: string, o: Partial<CapSkill> & { plugin?: string; description?: string } = {}): CapSkill => ({
  skill: { id: `${tier}.claude_code:${name}`, qualifiedName: o.plugin ? `${o.plugin}:${name}` : name, description: o.description ?? `about ${name}`, tier, ...(o.plugin ? { plugin: o.plugin } : {}) },
  enabled: o.enabled ?? true,
  ...(o.reason ? { reason: o.reason } : {}),
});
const pl = (name: string, o: Partial<CapPlugin> = {}): CapPlugin => ({ name, version: "1.0.0", enabled: true, trusted: false, source: "oceancode", ...o });

const data = (): CapData => ({
  skills: [
    sk("tdd", "local"),
    sk("review", "repo", { enabled: false, reason: "not in allowlist" }),
    sk("wrangler", "user", { enabled: false, reason: "disabled (user)" }),
    sk("agents", "user"),
    sk("lint", "plugin", { plugin: "acme" }),
    sk("fmt", "plugin", { plugin: "off-pack", enabled: false, reason: "disabled (plugin)" }),
  ],
  plugins: [pl("acme"), pl("off-pack", { enabled: false }), pl("cc", { source: "claude-code", trusted: true })],
  everythingOff: false,
});

const groups = (rows: CapRow[]) => rows.filter((r) => r.kind === "group").map((r) => (r.kind === "group" ? r.label : ""));

describe("skill rows", () => {
  it("start with the master row, group by tier then plugin, and end with the counts", () => {
    const rows = skillRows(data());
    expect(rows[0]).toEqual({ kind: "master", on: true });
    expect(groups(rows)).toEqual(["Local", "Repo", "User", "plugin:acme", "plugin:off-pack"]);
    expect(rows[rows.length - 1]).toEqual({ kind: "counts", text: "skills 3/6 · plugins 2/3" });
    const text = rows.map((r) => rowText(r, 200));
    expect(text).toContain("  [ ] wrangler  disabled (user)  about wrangler");
    expect(text).toContain("  [x] acme:lint  about lint");
    expect(text).toContain("[-] User (1/2)");
    expect(text).toContain("[off] Repo (0/1)");
    expect(text).toContain("[off] plugin:off-pack (0/1)  plugin disabled");
  });

  it("cut to the width", () => {
    const row = skillRows({ ...data(), skills: [sk("x", "user", { description: "d".repeat(300) })] })[2]!;
    const t = rowText(row, 40);
    expect(t.length).toBe(40);
    expect(t.endsWith("…")).toBe(true);
  });

  it("make names, descriptions and plugin names display-safe", () => {
    const evil = sk("ev\x1b]52;c;Zm9v\x07il", "repo", { description: "hi\x1b[2J\u202Eevil\r" });
    const rows = skillRows({ skills: [evil, sk("p", "plugin", { plugin: "pk\x1b[31m" })], plugins: [pl("n\x9bx")], everythingOff: false });
    const all = [...rows, ...pluginRows({ skills: [], plugins: [pl("n\x9bx")], everythingOff: false })].map((r) => rowText(r, 500)).join("\n");
    expect(all).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f\u202e]/);
    expect(all).toContain("␛]52;c;Zm9v␇");
    expect(all).toContain("plugin:pk␛[31m");
  });
});

describe("Space", () => {
  const d = data();
  const rows = skillRows(d);
  const find = (label: string) => rows.find((r) => r.kind === "group" && r.label === label)!;

  it("on an item flips it by its stable id", () => {
    const row = rows.find((r) => r.kind === "skill" && r.name === "wrangler")!;
    expect(spaceActions(row, d)).toEqual([{ kind: "skills", ids: ["user.claude_code:wrangler"], on: true }]);
  });

  it("on a group turns the off items on when any is off, else all off", () => {
    expect(spaceActions(find("User"), d)).toEqual([{ kind: "skills", ids: ["user.claude_code:wrangler"], on: true }]);
    expect(spaceActions(find("Local"), d)).toEqual([{ kind: "skills", ids: ["local.claude_code:tdd"], on: false }]);
  });

  it("on a plugin group switches the plugin through the plugins service", () => {
    expect(spaceActions(find("plugin:acme"), d)).toEqual([{ kind: "plugins", names: ["acme"], on: false }]);
    expect(spaceActions(find("plugin:off-pack"), d)).toEqual([{ kind: "plugins", names: ["off-pack"], on: true }]);
  });

  it("on the master row flips everything off, and the counts say so", () => {
    expect(spaceActions(rows[0]!, d)).toEqual([{ kind: "everything", off: true }]);
    const off = { ...d, everythingOff: true };
    expect(spaceActions(skillRows(off)[0]!, off)).toEqual([{ kind: "everything", off: false }]);
    expect(countsText(off)).toBe("EVERYTHING OFF · skills 3/6 · plugins 2/3");
    expect(rowText(skillRows(off)[0]!, 200)).toMatch(/^\[ \] Everything/);
  });
});

describe("plugin rows", () => {
  const d = data();
  const rows = pluginRows(d);
  it("group OceanCode and User (Claude), with version and trust", () => {
    expect(groups(rows)).toEqual(["OceanCode", "User (Claude)"]);
    const text = rows.map((r) => rowText(r, 200));
    expect(text).toContain("  [ ] off-pack  1.0.0  untrusted");
    expect(text).toContain("  [x] cc  1.0.0  trusted");
    expect(text).toContain("[-] OceanCode (1/2)");
  });
  it("Space enables / disables, t flips trust, a group header switches its plugins", () => {
    const row = rows.find((r) => r.kind === "plugin" && r.name === "off-pack")!;
    expect(spaceActions(row, d)).toEqual([{ kind: "plugins", names: ["off-pack"], on: true }]);
    expect(trustAction(row)).toEqual({ kind: "trust", name: "off-pack", on: true });
    expect(trustAction(rows[0]!)).toBeUndefined();
    const g = rows.find((r) => r.kind === "group" && r.label === "OceanCode")!;
    expect(spaceActions(g, d)).toEqual([{ kind: "plugins", names: ["off-pack"], on: true }]);
  });
});

describe("the services behind it", () => {
  it("applies toggles in order and reports the first failure display-safe", () => {
    const calls: string[] = [];
    const src = {
      project: "/p",
      skills: {
        all: () => data().skills.map((x) => ({ ...x, skill: { ...x.skill, name: "n", kind: "skill" as const, ecosystem: "claude", file: "", dir: "", modelInvocable: true, userInvocable: true, shadowed: false } })),
        setEnabled: (id: string, on: boolean) => void calls.push(`skill ${id} ${on}`),
        setEverythingOff: (off: boolean) => void calls.push(`everything ${off}`),
        everythingOff: () => true,
      },
      plugins: {
        list: () => data().plugins.map((p) => ({ ...p, path: "/x" })),
        setEnabled: (_p: string, n: string, on: boolean) => void calls.push(`plugin ${n} ${on}`),
        setTrusted: () => {
          throw new Error("bad\x1b[2Jstore");
        },
      },
    };
    expect(applyCapabilities(src, [{ kind: "skills", ids: ["a", "b"], on: false }, { kind: "everything", off: true }, { kind: "plugins", names: ["acme"], on: false }])).toBeUndefined();
    expect(calls).toEqual(["skill a false", "skill b false", "everything true", "plugin acme false"]);
    expect(applyCapabilities(src, [{ kind: "trust", name: "acme", on: true }])).toBe("bad␛[2Jstore");
    const r = readCapabilities(src);
    expect(r.data.everythingOff).toBe(true);
    expect(r.data.plugins.length).toBe(3);
    expect(applyCapabilities({ project: "/p" }, [{ kind: "everything", off: true }])).toBe("the skills extension is not loaded");
  });
});

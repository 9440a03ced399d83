/** `oceancode skill list [--json] | enable <id> | disable <id> | enable-all | disable-all | everything off|on|status` */
import path from "node:path";
import type { CommandIO } from "../../kernel/api.js";
import { type Skill, type SkillsService, type SkillState } from "./api.js";
import { isSkillNameError } from "./kit/shared.js";

export const SKILL_USAGE = "usage: oceancode skill list [--json] | enable <id|name> | disable <id|name> | enable-all | disable-all | everything off|on|status  [--dir <d>]";

/** Is this item's tier trusted (local, user, bundled; repo when trust.json says so; a plugin installed with trust)? */
export type TrustedFn = (s: Skill) => boolean;

export function formatList(rows: SkillState[], trusted: TrustedFn): string[] {
  const cells = rows.map((x) => [x.skill.id, x.skill.plugin ? `plugin:${x.skill.plugin}` : x.skill.tier, trusted(x.skill) ? "trusted" : "untrusted", x.enabled ? "enabled" : x.reason!, x.skill.description]);
  const widths = [0, 1, 2, 3].map((i) => Math.max(0, ...cells.map((c) => c[i]!.length)));
  return cells.map((c) => c.map((v, i) => (i < 4 ? v.padEnd(widths[i]!) : v)).join("  ").trimEnd());
}

export function jsonRows(rows: SkillState[], trusted: TrustedFn): object[] {
  return rows.map((x) => ({
    id: x.skill.id,
    name: x.skill.qualifiedName,
    kind: x.skill.kind,
    tier: x.skill.tier,
    ...(x.skill.plugin ? { plugin: x.skill.plugin } : {}),
    trusted: trusted(x.skill),
    enabled: x.enabled,
    ...(x.enabled ? {} : { reason: x.reason }),
    description: x.skill.description,
    file: x.skill.file,
  }));
}

export async function skillCommand(service: SkillsService, argv: string[], io: CommandIO, trusted: TrustedFn): Promise<number> {
  const bad = (why: string) => {
    io.stderr.write(`oceancode skill: ${why}\n${SKILL_USAGE}\n`);
    return 2;
  };
  if (argv.includes("--help") || argv.includes("-h")) {
    io.stdout.write(`${SKILL_USAGE}\n`);
    return 0;
  }
  const args = [...argv];
  // --root names the project like the global --dir; the catalog is the kernel's, so it must be the same one
  const r = args.indexOf("--root");
  if (r >= 0) {
    const dir = args[r + 1];
    if (!dir) return bad("--root needs a directory");
    if (path.resolve(dir) !== path.resolve(io.project)) return bad(`--root ${dir}: pass it as the global --dir ${dir} (before 'skill')`);
    args.splice(r, 2);
  }
  const json = args.includes("--json");
  const [verb, name, ...extra] = args.filter((a) => a !== "--json");
  try {
    if (verb === "list" && name === undefined) {
      const rows = service.all();
      io.stdout.write(json ? `${JSON.stringify(jsonRows(rows, trusted), null, 2)}\n` : rows.length ? `${formatList(rows, trusted).join("\n")}\n` : "no skills or commands found\n");
      return 0;
    }
    if ((verb === "enable" || verb === "disable") && name !== undefined && extra.length === 0) {
      const changed = service.setEnabled(name, verb === "enable");
      io.stdout.write(`${verb === "enable" ? "enabled" : "disabled"} ${changed[0]!.id}\n`);
      const left = service.all().find((x) => x.skill.id === changed[0]!.id);
      if (verb === "enable" && left && !left.enabled) io.stdout.write(`note: still off: ${left.reason}\n`);
      return 0;
    }
    if ((verb === "enable-all" || verb === "disable-all") && name === undefined) {
      service.setAll(verb === "enable-all");
      const rows = service.all();
      io.stdout.write(`${verb === "enable-all" ? "cleared every user-tier disable" : `disabled ${new Set(rows.map((x) => x.skill.id)).size} skills`}; ${rows.filter((x) => x.enabled).length}/${rows.length} enabled\n`);
      return 0;
    }
    // the project's master switch (trust.json `everything_off`): the pager's `Everything` row, from a shell
    if (verb === "everything" && (name === "off" || name === "on" || name === "status") && extra.length === 0) {
      if (name !== "status") service.setEverythingOff(name === "off");
      const off = service.everythingOff ? service.everythingOff() : name === "off";
      io.stdout.write(
        off
          ? `everything off for ${io.project}: skills, MCP tools, hooks and plugin rules are left out (built-in tools stay); oceancode skill everything on restores them\n`
          : `everything on for ${io.project}: each skill, plugin and hook has its own state again\n`,
      );
      return 0;
    }
    return bad(verb === undefined ? "missing subcommand" : `unexpected arguments: ${argv.join(" ")}`);
  } catch (e) {
    if (isSkillNameError(e) || (e instanceof Error && typeof (e as { code?: unknown }).code === "string")) {
      io.stderr.write(`oceancode skill: ${e.message}\n`);
      return 1;
    }
    throw e;
  }
}

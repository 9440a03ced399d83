/**
 * The `skills` service: the walk's items, the enable fold over them, and the toggles that write the
 * user store and trust.json. The walk is read once (until reload()); the fold is recomputed only when
 * skill-state.json, trust.json or the project policy changed (a few stats), so a toggle from a shell
 * reaches the next step.
 */
import fs from "node:fs";
import type { Discovered } from "../../kernel/api.js";
import type { TrustService } from "../trust/api.js";
import { SKILL_AMBIGUOUS, SKILL_UNKNOWN, type Skill, type SkillNameError, type SkillsService, type SkillState } from "./api.js";
import { stableId } from "./kit/shared.js";
import { buildCatalog, formatListing, resolveIn, type SkillItem } from "./catalog.js";
import { entryMatches, foldEnable, pick, userDisable, userEnable, type EnableState, type EnableSubject, type SkillsPolicy } from "./enable.js";
import { expandBody } from "./expand.js";
import { parseFrontmatter } from "./frontmatter.js";
import { stampOf, UserSkillStore } from "./user-store.js";
import type { LivePluginState } from "./plugin-state.js";
import { SkillAmbiguous, SkillsTrustMissing, SkillUnknown } from "./errors.js";

export interface ServiceDeps {
  walk(): Array<Pick<Discovered<SkillItem>, "item" | "root">>;
  project: string;
  store: UserSkillStore;
  trust?: TrustService;
  /** the project policy in force (re-read by the caller when its file changes) */
  policy(): SkillsPolicy;
  warn(msg: string): void;
  /** installed.json read live, so a plugin switched off mid-session drops its items on the next step */
  plugins?: LivePluginState;
}

interface Computed {
  stamp: string;
  enabled: Skill[];
  all: SkillState[];
}

const keyOf = (id: string, plugin: string | undefined) => `${id}@${plugin ?? ""}`;
const subjectOf = (s: Skill): EnableSubject => ({ id: s.id, name: s.name, ...(s.plugin ? { plugin: s.plugin } : {}) });

function nameError(code: SkillNameError["code"], message: string, candidates: string[]): SkillNameError {
  const made = (code === SKILL_UNKNOWN ? SkillUnknown : SkillAmbiguous)({ message }, { data: { candidates } });
  return Object.assign(made, { code, candidates });
}

export function createSkillsService(deps: ServiceDeps): SkillsService {
  const warned = new Set<string>();
  let found: Array<Pick<Discovered<SkillItem>, "item" | "root">> | undefined;
  let computed: Computed | undefined;
  let listingFor: Skill[] | undefined;
  let listingText = "";

  const stamp = () => `${stampOf(deps.store.file)}|${stampOf(deps.trust?.file)}|${deps.plugins?.stamp() ?? ""}|${JSON.stringify(deps.policy())}`;
  const walk = () => {
    found = deps.walk();
    computed = undefined;
    return found;
  };

  function compute(): Computed {
    const s = stamp();
    if (computed && computed.stamp === s) return computed;
    const items = found ?? walk();
    const t = deps.trust?.get(deps.project);
    const inputs = { everythingOff: t?.everything_off === true, userDisabled: deps.store.disabled(), explicitEnabled: t?.enabled_skills ?? [], policy: deps.policy() };
    const states = new Map<string, EnableState>();
    const on: typeof items = [];
    for (const f of items) {
      const id = stableId(f.root.tier, f.root.ecosystem, f.item.bare);
      const plugin = f.root.plugin?.name;
      const pluginEnabled = f.root.plugin ? (deps.plugins ? deps.plugins.enabled(f.root.plugin) : f.root.plugin.enabled && f.item.pluginEnabled !== false) : true;
      const st = foldEnable({ id, name: f.item.bare, ...(plugin ? { plugin } : {}), pluginEnabled }, inputs);
      states.set(keyOf(id, plugin), st);
      if (st.enabled) on.push(f);
    }
    // collisions over the enabled items only: a disabled copy does not qualify the one left
    const enabled = buildCatalog(on);
    const byKey = new Map(enabled.map((x) => [keyOf(x.id, x.plugin), x]));
    const all = buildCatalog(items).map((x): SkillState => {
      const st = states.get(keyOf(x.id, x.plugin)) ?? { enabled: true };
      return st.enabled ? { skill: byKey.get(keyOf(x.id, x.plugin)) ?? x, enabled: true } : { skill: x, enabled: false, reason: st.reason };
    });
    for (const x of all) {
      // one warning per file per process, naming it; the item still loads
      if (!x.skill.warning || warned.has(x.skill.warning) || !x.enabled) continue;
      warned.add(x.skill.warning);
      deps.warn(x.skill.warning);
    }
    computed = { stamp: s, enabled, all };
    return computed;
  }

  const needTrust = (): TrustService => {
    if (!deps.trust) throw SkillsTrustMissing();
    return deps.trust;
  };

  const service: SkillsService = {
    list: () => compute().enabled,
    all: () => compute().all,
    reload() {
      walk();
      return compute().enabled;
    },
    resolve: (name, opts) => resolveIn(service.list(), name, opts?.by ?? "model"),
    invoke(skill, args) {
      const { body } = parseFrontmatter(fs.readFileSync(skill.file, "utf8"));
      return { skill, text: expandBody(body.replace(/^\s*\n/, ""), args, skill.dir) };
    },
    // one listing per fold (list() returns the same array until the fold changes): nothing per step
    listing: (only?: readonly string[]) => {
      const items = service.list();
      // a narrowed listing (only these qualified names, walk order) is built per call: its caller keeps it
      if (only) return formatListing(items.filter((s) => only.includes(s.qualifiedName)));
      if (listingFor !== items) (listingFor = items), (listingText = formatListing(items));
      return listingText;
    },
    setEnabled(idOrName, on) {
      const all = service.all().map((x) => x.skill);
      const hits = pick(
        all.map((s) => ({ ...subjectOf(s), qualifiedName: s.qualifiedName, skill: s })),
        idOrName,
      );
      const ids = [...new Set(hits.map((h) => h.id))];
      if (!ids.length) throw nameError(SKILL_UNKNOWN, `no skill or command named '${idOrName}'`, []);
      if (ids.length > 1) throw nameError(SKILL_AMBIGUOUS, `'${idOrName}' names ${ids.length} skills; pass one of their ids: ${ids.join(", ")}`, ids);
      const target = hits[0]!;
      const disabled = deps.store.disabled();
      deps.store.assertWritable();
      if (on) {
        // trust.json first: when it is corrupt (the update throws) nothing has been written
        needTrust().update(deps.project, (t) => {
          if (!t.enabled_skills.includes(target.id)) t.enabled_skills.push(target.id);
        });
        deps.store.write(userEnable(disabled, target, all.map(subjectOf)));
      } else {
        deps.store.write(userDisable(disabled, target));
        if (deps.trust?.get(deps.project).enabled_skills.some((e) => entryMatches(e, target))) {
          deps.trust.update(deps.project, (t) => {
            t.enabled_skills = t.enabled_skills.filter((e) => !entryMatches(e, target));
          });
        }
      }
      computed = undefined;
      return hits.map((h) => h.skill);
    },
    setAll(on) {
      deps.store.write(on ? [] : [...new Set(service.all().map((x) => x.skill.id))]);
      computed = undefined;
    },
    everythingOff: () => deps.trust?.get(deps.project).everything_off === true,
    trusted(skill) {
      // the trust gate's rule (extensions/trust decideTrust), over the root the item was read from
      const root = (found ?? walk()).find((f) => f.root.tier === skill.tier && f.root.ecosystem === skill.ecosystem && f.root.plugin?.name === skill.plugin)?.root;
      if (!root) return false;
      if (root.trustedByDefault) return true;
      if (root.tier === "repo") return deps.trust?.repoTrusted(deps.project) ?? false;
      return root.plugin?.enabled === true && root.plugin.trusted === true;
    },
    setEverythingOff(off) {
      needTrust().update(deps.project, (t) => {
        t.everything_off = off;
      });
      computed = undefined;
    },
  };
  return service;
}

/**
 * Every decision point of the layer, one module per file (docs/jev.md). index.ts installs each; `jev
 * questions` and `jev verdicts` read their questions and policies. One line per point.
 */
import type { ExtensionContext } from "../../../kernel/api.js";
import type { JevPointModule, JevService } from "../api.js";
import { permission } from "./permission.js";
import { triage } from "./triage.js";
import { supervisor } from "./supervisor.js";
import { output, recall, skills, toolTiers } from "./catalog.js";

/** A bare installer is accepted too (a point without `jev questions` / `jev verdicts` entries). */
export type JevPointInstaller = (ctx: ExtensionContext, jev: JevService) => void;

export const POINT_MODULES: ReadonlyArray<JevPointModule | JevPointInstaller> = [
  permission,
  output,
  recall,
  triage,
  toolTiers,
  skills,
  supervisor,
];

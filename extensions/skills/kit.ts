/**
 * The kit `oceancode/kit/skills`: the implementation skills shares with other extensions and third parties
 * (its types, hook tables and constants are the contract `oceancode/api/skills`, extensions/skills/api.ts).
 */
/**
 * YAML frontmatter as plain data, shared by every reader of markdown capabilities (agents, rules): the
 * common flat shapes without js-yaml, the rest through it (loaded on first need).
 */
export { readFrontmatter, toolList } from "./frontmatter.js";
export { isSkillNameError, stableId } from "./kit/shared.js";

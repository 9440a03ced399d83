/** The engine's hooks object, made from its declaration table (ENGINE_HOOKS in api.ts): frozen, kinds in the types. */
import { createHooks } from "../../kernel/api.js";
import { ENGINE_HOOKS, type EngineHooks } from "./api.js";

export function createEngineHooks(): EngineHooks {
  return createHooks(ENGINE_HOOKS);
}

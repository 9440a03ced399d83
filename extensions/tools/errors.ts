/** The tools extension's coded errors (each defined once here). */
import { defineError } from "../../kernel/api.js";

/** A bad tool call: its message goes back to the model as the tool's error result. */
export const ToolInputError = defineError("tools", "OC_ERR_TOOL_INPUT", "{message}");

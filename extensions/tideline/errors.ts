/** The tideline extension's coded errors (each defined once here). */
import { defineError } from "../../kernel/api.js";

/** A `--tideline` value that does not parse (the run host prints it with its usage, exit 2). */
export const TidelineSpecInvalid = defineError("tideline", "OC_ERR_TIDELINE_SPEC", "--tideline: {problem}", { exitCode: 2 });

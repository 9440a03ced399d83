/**
 * Build step: compile the manifest schema into a standalone validator module
 * (dist/kernel/manifest-validator.cjs) so reading manifests never loads ajv at run time.
 */
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import standaloneCode from "ajv/dist/standalone/index.js";

const schema = JSON.parse(fs.readFileSync(new URL("../../schemas/manifest.schema.json", import.meta.url), "utf8")) as object;
const ajv = new Ajv2020({ allErrors: false, strict: false, code: { source: true } });
const validate = ajv.compile(schema);
const out = fileURLToPath(new URL("./manifest-validator.cjs", import.meta.url));
fs.writeFileSync(out, standaloneCode.default(ajv, validate));

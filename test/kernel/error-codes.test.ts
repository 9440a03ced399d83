/** The open error-code registry, and errors recognised by code (never by class identity). */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../kit/cli.js";
import { ErrorCodes, OcError, errorCodes, errorMessage, hasErrorCode, isOcError, registerErrorCodes } from "../../kernel/api.js";

describe("error codes", () => {
  it("the kernel's codes are listed with owner 'kernel'", () => {
    const all = errorCodes();
    expect(all.find((c) => c.code === ErrorCodes.USAGE)).toMatchObject({ owner: "kernel" });
    expect(all.filter((c) => c.owner === "kernel").map((c) => c.code).sort()).toEqual(Object.values(ErrorCodes).sort());
  });

  it("docs/extensions.md (Errors) documents every kernel code", () => {
    const doc = fs.readFileSync(path.join(REPO_ROOT, "docs", "extensions.md"), "utf8");
    const errors = doc.slice(doc.indexOf("## Errors"));
    expect(Object.values(ErrorCodes).filter((c) => !errors.includes(`\`${c}\``))).toEqual([]);
  });

  it("an extension registers its codes; listed with the owner; again by the same owner is a no-op", () => {
    registerErrorCodes("reg-a", { OC_ERR_REG_A_BROKEN: "the widget broke" });
    registerErrorCodes("reg-a", { BROKEN: "OC_ERR_REG_A_BROKEN" });
    expect(errorCodes().filter((c) => c.code === "OC_ERR_REG_A_BROKEN")).toEqual([{ code: "OC_ERR_REG_A_BROKEN", owner: "reg-a", description: "the widget broke" }]);
  });

  it("a code held by another owner throws a coded error naming both; nothing of that call is registered", () => {
    registerErrorCodes("reg-b", { OC_ERR_REG_B_ONE: "one" });
    let caught: unknown;
    try {
      registerErrorCodes("reg-c", { OC_ERR_REG_C_FRESH: "fresh", OC_ERR_REG_B_ONE: "mine now" });
    } catch (e) {
      caught = e;
    }
    expect(hasErrorCode(caught, ErrorCodes.ERROR_CODE_TAKEN)).toBe(true);
    expect(errorMessage(caught)).toContain("'OC_ERR_REG_B_ONE' is registered by both 'reg-b' and 'reg-c'");
    expect(errorCodes().some((c) => c.code === "OC_ERR_REG_C_FRESH")).toBe(false);
    expect(() => registerErrorCodes("reg-d", { OC_ERR_USAGE: "taken by the kernel" })).toThrow(/registered by both 'kernel' and 'reg-d'/);
  });

  it("a malformed code is refused", () => {
    expect(() => registerErrorCodes("reg-e", { "oc_err_lower": "x" })).toThrow(/not OC_ERR_/);
  });

  it("isOcError recognises the shape: another copy's class, a plain object, an Error with a code", () => {
    class ForeignOcError extends Error {
      constructor(readonly code: string, message: string, readonly hint?: string) {
        super(message);
      }
    }
    const foreign = new ForeignOcError("OC_ERR_FOREIGN_THING", "from another install", "do this");
    expect(foreign instanceof OcError).toBe(false);
    expect(isOcError(foreign)).toBe(true);
    expect(errorMessage(foreign)).toBe("OC_ERR_FOREIGN_THING: from another install; do this");
    expect(isOcError({ code: "OC_ERR_PLAIN", message: "plain" })).toBe(true);
    expect(isOcError(Object.assign(new Error("fs"), { code: "ENOENT" }))).toBe(false);
    expect(isOcError({ code: "OC_ERR_X" })).toBe(false);
    expect(isOcError(null)).toBe(false);
    expect(errorMessage(new OcError(ErrorCodes.USAGE, "bad flag", { hint: "see --help" }))).toBe("OC_ERR_USAGE: bad flag; see --help");
    expect(errorMessage(new Error("plain"))).toBe("plain");
  });
});

/** defineError: one definition per code, a typed factory, the registry inspect --errors lists. */
import { describe, expect, it } from "vitest";
import { ErrorCodes, defineError, errorDefinitions, errorMessage, exitCodeOf, hasErrorCode, isOcError, OcError } from "../../kernel/api.js";

describe("defineError", () => {
  it("fills the template and hint from typed params, carries code, exit code, cause and data", () => {
    const Gone = defineError("def-a", "OC_ERR_DEF_A_GONE", "session '{id}' is gone after {n} tries", { hint: "run oceancode sessions to see {id}'s neighbours", exitCode: 3 });
    const cause = new Error("root");
    const e = Gone.withData<{ tries: number }>()({ id: "s1", n: 2 }, { cause, data: { tries: 2 } });
    expect(e).toBeInstanceOf(OcError);
    expect(e.message).toBe("session 's1' is gone after 2 tries");
    expect(e.hint).toBe("run oceancode sessions to see s1's neighbours");
    expect(e.cause).toBe(cause);
    expect(e.data).toEqual({ tries: 2 });
    expect(errorMessage(e)).toBe("OC_ERR_DEF_A_GONE: session 's1' is gone after 2 tries; run oceancode sessions to see s1's neighbours");
    expect(exitCodeOf(e)).toBe(3);
    expect(Gone.is(e) && hasErrorCode(e, "OC_ERR_DEF_A_GONE")).toBe(true);
    expect(Gone.is({ code: "OC_ERR_DEF_A_GONE", message: "from another copy" })).toBe(true);
    expect(Gone.is(new Error("plain"))).toBe(false);
    // @ts-expect-error: the template's params are required
    expect(Gone().message).toBe("session '{id}' is gone after {n} tries");
  });

  it("a template without placeholders takes no params; the exit code defaults to 1", () => {
    const Plain = defineError("def-b", "OC_ERR_DEF_B_PLAIN", "nothing to do");
    expect(Plain().message).toBe("nothing to do");
    expect(exitCodeOf(Plain())).toBe(1);
    expect(exitCodeOf(new OcError(ErrorCodes.USAGE, "bad flag"))).toBe(2);
    expect(exitCodeOf(new Error("plain"))).toBe(1);
  });

  it("is listed with owner, message, hint and exit code; the kernel's codes are listed too", () => {
    defineError("def-c", "OC_ERR_DEF_C_LISTED", "{file}: unreadable", { hint: "check its permissions", exitCode: 4 });
    const all = errorDefinitions();
    expect(all.find((d) => d.code === "OC_ERR_DEF_C_LISTED")).toEqual({ owner: "def-c", code: "OC_ERR_DEF_C_LISTED", message: "{file}: unreadable", hint: "check its permissions", exitCode: 4 });
    expect(all.find((d) => d.code === ErrorCodes.USAGE)).toMatchObject({ owner: "kernel", exitCode: 2 });
    expect(all.map((d) => d.code)).toEqual([...all.map((d) => d.code)].sort((a, b) => a.localeCompare(b)));
  });

  it("duplicates are refused: another owner's code, or the same owner's code with another message; the same definition again is a no-op", () => {
    defineError("def-d", "OC_ERR_DEF_D_ONE", "one");
    expect(() => defineError("def-d", "OC_ERR_DEF_D_ONE", "one")).not.toThrow();
    const taken = (() => {
      try {
        defineError("def-e", "OC_ERR_DEF_D_ONE", "one");
      } catch (e) {
        return e;
      }
    })();
    expect(hasErrorCode(taken, ErrorCodes.ERROR_CODE_TAKEN)).toBe(true);
    expect(isOcError(taken) && taken.message).toContain("registered by both 'def-d' and 'def-e'");
    expect(() => defineError("def-d", "OC_ERR_DEF_D_ONE", "two")).toThrow(/defined twice by 'def-d'/);
    expect(() => defineError("kernel-thief", ErrorCodes.USAGE, "mine")).toThrow(/registered by both 'kernel'/);
    expect(() => defineError("def-f", "not_a_code", "x")).toThrow(/not OC_ERR_/);
  });
});

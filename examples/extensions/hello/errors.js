// The hello extension's coded errors, defined once here with the kernel's defineError. A command throws
// them (the host prints `oceancode: OC_ERR_HELLO_TOO_MANY_NAMES: ...` and exits with the exit code), and
// `oceancode inspect --errors` lists them without activating the extension.
import { defineError } from "oceancode/kernel";

export const TooManyNames = defineError("hello", "OC_ERR_HELLO_TOO_MANY_NAMES", "expected at most one name, got {count}", {
  hint: "quote a name with spaces: oceancode hello 'Ada Lovelace'",
  exitCode: 2,
});

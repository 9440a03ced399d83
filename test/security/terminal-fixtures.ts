/** Shared hostile inputs for the terminal-safety tests: one of each escape-sequence family. */
import type { Sandbox } from "../kit/cli.js";

const ESC = "\x1b";
const BEL = "\x07";
const ST = `${ESC}\\`;

/** one of each family, space separated (so each shows as its own word on screen) */
export const EVIL_SEQUENCES = [
  `${ESC}]52;c;SU5KRUNURUQ=${BEL}`, // OSC 52: clipboard := "INJECTED"
  `${ESC}]0;PWNED-TITLE-0${BEL}`, // OSC 0: icon name and title
  `${ESC}]2;PWNED-TITLE-2${ST}`, // OSC 2 ended by ST
  `${ESC}[31mRED${ESC}[0m`, // SGR colour
  `${ESC}[2J${ESC}[H${ESC}[3A`, // clear screen, home, cursor up
  `${ESC}P1$r0m${ST}`, // DCS string
  "\x9b2J", // 8-bit CSI: clear screen
  "\x9d2;C1-TITLE\x9c", // 8-bit OSC ended by 8-bit ST
  "\u202eevil\u202c", // bidi override (Trojan Source)
].join(" ");

export const EVIL_TEXT = `BEFORE-MARK ${EVIL_SEQUENCES} AFTER-MARK`;
/** a bash command whose output holds sequences (printf writes the bytes; \302\233 is U+009B in UTF-8) */
export const EVIL_TOOL_COMMAND = "printf 'TOOL-START \\033]52;c;VE9PTA==\\007 \\033]2;TOOL-TITLE\\007 \\033[32mGREEN\\033[0m \\033[2J \\302\\2332J TOOL-END\\n'";
export const EVIL_TOOL_OUTPUT = `TOOL-START ${ESC}]52;c;VE9PTA==${BEL} ${ESC}]2;TOOL-TITLE${BEL} ${ESC}[32mGREEN${ESC}[0m ${ESC}[2J \u009b2J TOOL-END`;
/** a tool the model names with a sequence in the name (the engine answers "unknown tool '…'", quoting it) */
export const EVIL_TOOL_NAME = `nosuch${ESC}]0;NAME-TITLE${BEL}tool`;

/** A scripted model: evil text and two tool calls, then "all finished". */
export function writeEvilScript(sb: Sandbox, file: string): void {
  sb.write(
    file,
    JSON.stringify({
      steps: [
        { text: EVIL_TEXT, tool_calls: [{ name: "bash", input: { command: EVIL_TOOL_COMMAND } }, { name: EVIL_TOOL_NAME, input: { note: `${ESC}]0;INPUT-TITLE${BEL}` } }] },
        { text: "all finished" },
      ],
    }),
  );
}

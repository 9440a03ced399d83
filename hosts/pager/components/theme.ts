/** Colours, or none at all when NO_COLOR is set (https://no-color.org). */
import { createContext, useContext } from "react";
import type { Paint } from "../render/style.js";

export interface Theme {
  color: boolean;
  /** a colour name, or undefined when colour is off */
  c(name: string): string | undefined;
  /** how rendered markdown and diffs are painted (colours, OSC 8 links) */
  paint: Paint;
}
export function makeTheme(color: boolean, links = false): Theme {
  return { color, c: (name) => (color ? name : undefined), paint: { color, links } };
}
export const ThemeContext = createContext<Theme>(makeTheme(true));
export const useTheme = (): Theme => useContext(ThemeContext);

/** NO_COLOR set to any non-empty value turns colour off. */
export function colorFromEnv(env: NodeJS.ProcessEnv): boolean {
  return !(env.NO_COLOR !== undefined && env.NO_COLOR !== "");
}

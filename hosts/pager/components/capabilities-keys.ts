/**
 * Keys while the capabilities picker is open: ↑↓ (pgup/pgdn, home/end) move over the rows, tab /
 * shift+tab / ←→ switch tabs, Space toggles the row (item, group, or the master "Everything"), `t`
 * flips a plugin's trust, esc closes back to the composer. Every other key is swallowed.
 */
import type { Key } from "ink";
import type { PagerStore } from "../store.js";
import { CAP_TABS, rowsFor, selectable, spaceActions, trustAction, type CapAction } from "../capabilities-model.js";

export interface CapabilitiesActions {
  /** apply the toggles through the services, then refresh `store.capabilities.data` */
  applyCapabilities?(actions: CapAction[]): void;
}

const PAGE = 10;

/** The next selectable row from `from` in direction `dir` (or `from` itself when there is none). */
function step(rows: ReturnType<typeof rowsFor>, from: number, dir: 1 | -1, count = 1): number {
  let at = from;
  for (let i = from + dir, moved = 0; i >= 0 && i < rows.length && moved < count; i += dir) {
    if (selectable(rows[i])) {
      at = i;
      moved++;
    }
  }
  return at;
}

/** True when the picker is open (it takes every key). */
export function capabilitiesKey(store: PagerStore, actions: CapabilitiesActions, input: string, key: Key): boolean {
  const c = store.capabilities;
  if (!c) return false;
  const rows = rowsFor(c.tab, c.data);
  if (key.escape) store.capabilities = undefined;
  else if (key.tab || key.leftArrow || key.rightArrow) {
    const back = (key.tab && key.shift) || key.leftArrow;
    const i = CAP_TABS.indexOf(c.tab);
    c.tab = CAP_TABS[(i + (back ? CAP_TABS.length - 1 : 1)) % CAP_TABS.length]!;
    c.index = 0;
    c.message = undefined;
  } else if (key.upArrow) c.index = step(rows, c.index, -1);
  else if (key.downArrow) c.index = step(rows, c.index, 1);
  else if (key.pageUp || key.home) c.index = step(rows, c.index, -1, key.home ? rows.length : PAGE);
  else if (key.pageDown || key.end) c.index = step(rows, c.index, 1, key.end ? rows.length : PAGE);
  else if (input === " " || input === "t") {
    const row = rows[Math.min(c.index, rows.length - 1)];
    if (!row) return true;
    const todo = input === " " ? spaceActions(row, c.data) : [trustAction(row)].filter((a): a is CapAction => a !== undefined);
    if (!todo.length) return true;
    if (!actions.applyCapabilities) c.message = "this host cannot change capabilities";
    else actions.applyCapabilities(todo);
  } else return true;
  store.changed();
  return true;
}

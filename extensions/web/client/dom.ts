/**
 * A small React DOM renderer on react-reconciler (the package React's own renderers are built on; react-dom
 * is not a dependency here). It sets attributes, properties (value, checked) and native event listeners
 * (`onClick` -> "click", `onChange` on a text field -> "input"); it has no innerHTML path at all, so no prop
 * can turn text into markup. Handlers get the native event.
 */
import type { ReactNode } from "react";
import Reconciler from "react-reconciler";
import { ConcurrentRoot, DefaultEventPriority, DiscreteEventPriority, NoEventPriority } from "react-reconciler/constants.js";
import { createContext } from "react";

type Props = Record<string, unknown>;
type Listener = (e: Event) => void;

const listeners = new WeakMap<Element, Map<string, Listener>>();
const PROPERTIES = new Set(["value", "checked"]);
const RENAMED: Record<string, string> = { className: "class", htmlFor: "for", tabIndex: "tabindex", readOnly: "readonly", autoComplete: "autocomplete", spellCheck: "spellcheck" };
const DISCRETE = new Set(["click", "keydown", "keyup", "input", "change", "submit", "focusin", "focusout", "pointerdown", "pointerup"]);

function eventName(el: Element, prop: string): string {
  const n = prop.slice(2).toLowerCase();
  if (n === "change" && (el.tagName === "TEXTAREA" || (el.tagName === "INPUT" && !["checkbox", "radio"].includes((el as HTMLInputElement).type)))) return "input";
  if (n === "doubleclick") return "dblclick";
  return n;
}

function setProp(el: Element, key: string, value: unknown): void {
  if (key === "children" || key === "key" || key === "ref") return;
  if (key === "dangerouslySetInnerHTML") throw new Error("this renderer never sets HTML");
  if (/^on[A-Z]/.test(key)) {
    const name = eventName(el, key);
    const map = listeners.get(el) ?? new Map<string, Listener>();
    listeners.set(el, map);
    const old = map.get(name);
    if (old) el.removeEventListener(name, old);
    if (typeof value === "function") {
      map.set(name, value as Listener);
      el.addEventListener(name, value as Listener);
    } else map.delete(name);
    return;
  }
  if (PROPERTIES.has(key)) {
    const field = el as HTMLInputElement;
    if (key === "value" && field.value !== String(value ?? "")) field.value = String(value ?? "");
    if (key === "checked") field.checked = value === true;
    return;
  }
  if (key === "style" && typeof value === "object" && value) {
    // through the CSSOM (allowed by a style-src without 'unsafe-inline')
    for (const [k, v] of Object.entries(value)) (el as HTMLElement).style.setProperty(k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`), String(v));
    return;
  }
  const attr = RENAMED[key] ?? key;
  if (value === undefined || value === null || value === false) el.removeAttribute(attr);
  else if (value === true) el.setAttribute(attr, attr.startsWith("aria-") || attr.startsWith("data-") ? "true" : "");
  else el.setAttribute(attr, String(value));
}

let priority: number = NoEventPriority;

const host = {
  supportsMutation: true,
  supportsPersistence: false,
  supportsHydration: false,
  isPrimaryRenderer: true,
  supportsMicrotasks: true,
  scheduleMicrotask: queueMicrotask,
  scheduleTimeout: setTimeout,
  cancelTimeout: clearTimeout,
  noTimeout: -1,
  getRootHostContext: () => ({}),
  getChildHostContext: (parent: object) => parent,
  getPublicInstance: (i: unknown) => i,
  prepareForCommit: () => null,
  resetAfterCommit: () => undefined,
  preparePortalMount: () => undefined,
  shouldSetTextContent: () => false,
  createInstance(type: string, props: Props) {
    const el = type === "svg" || type === "path" ? document.createElementNS("http://www.w3.org/2000/svg", type) : document.createElement(type);
    for (const [k, v] of Object.entries(props)) if (k !== "value" || type !== "select") setProp(el, k, v);
    return el;
  },
  createTextInstance: (text: string) => document.createTextNode(text),
  appendInitialChild: (p: Node, c: Node) => p.appendChild(c),
  // a select's value applies once its options are in (commitMount)
  finalizeInitialChildren: (_el: Element, type: string, props: Props) => type === "select" && "value" in props,
  commitMount(el: Element, _type: string, props: Props) {
    setProp(el, "value", props.value);
  },
  appendChild: (p: Node, c: Node) => p.appendChild(c),
  appendChildToContainer: (p: Node, c: Node) => p.appendChild(c),
  insertBefore: (p: Node, c: Node, before: Node) => p.insertBefore(c, before),
  insertInContainerBefore: (p: Node, c: Node, before: Node) => p.insertBefore(c, before),
  removeChild: (p: Node, c: Node) => p.removeChild(c),
  removeChildFromContainer: (p: Node, c: Node) => p.removeChild(c),
  clearContainer: (c: Element) => {
    c.textContent = "";
  },
  commitUpdate(el: Element, _type: string, oldProps: Props, newProps: Props) {
    for (const k of Object.keys(oldProps)) if (!(k in newProps)) setProp(el, k, undefined);
    for (const [k, v] of Object.entries(newProps)) if (oldProps[k] !== v || PROPERTIES.has(k)) setProp(el, k, v);
  },
  commitTextUpdate: (t: Text, _old: string, text: string) => {
    t.data = text;
  },
  resetTextContent: (el: Element) => {
    el.textContent = "";
  },
  hideInstance: (el: HTMLElement) => el.setAttribute("hidden", ""),
  unhideInstance: (el: HTMLElement) => el.removeAttribute("hidden"),
  hideTextInstance: (t: Text) => {
    t.data = "";
  },
  unhideTextInstance: (t: Text, text: string) => {
    t.data = text;
  },
  detachDeletedInstance: () => undefined,
  beforeActiveInstanceBlur: () => undefined,
  afterActiveInstanceBlur: () => undefined,
  getInstanceFromNode: () => null,
  prepareScopeUpdate: () => undefined,
  getInstanceFromScope: () => null,
  setCurrentUpdatePriority: (p: number) => {
    priority = p;
  },
  getCurrentUpdatePriority: () => priority,
  // what a person does (a key, a click) renders at once, as react-dom does: a typed character is never undone
  resolveUpdatePriority: () => (priority !== NoEventPriority ? priority : window.event && DISCRETE.has(window.event.type) ? DiscreteEventPriority : DefaultEventPriority),
  maySuspendCommit: () => false,
  NotPendingTransition: undefined,
  HostTransitionContext: createContext(null),
  resetFormInstance: () => undefined,
  requestPostPaintCallback: () => undefined,
  shouldAttemptEagerTransition: () => false,
  trackSchedulerEvent: () => undefined,
  resolveEventType: () => window.event?.type ?? null,
  resolveEventTimeStamp: () => window.event?.timeStamp ?? -1.1,
  preloadInstance: () => true,
  startSuspendingCommit: () => undefined,
  suspendInstance: () => undefined,
  waitForCommitToBeReady: () => null,
  rendererPackageName: "oceancode-web",
  rendererVersion: "0.1.0",
};

const reconciler = Reconciler(host as never);

/** Render `tree` into `container` (replacing what it holds). */
export function render(tree: ReactNode, container: Element): void {
  // an error React could not recover from is the page's uncaught error (window "error", and the console)
  const report = (e: unknown) => reportError(e);
  const root = reconciler.createContainer(container, ConcurrentRoot, null, false, null, "oc", report, report, report, () => undefined);
  reconciler.updateContainer(tree, root, null, () => undefined);
}

/**
 * The renderer hands handlers the browser's own events (not React's synthetic ones): this wraps a handler
 * typed on a native event so the JSX props (typed for react-dom) take it.
 */
export function native<E extends Event = Event>(f: (e: E) => void): never {
  return f as unknown as never;
}

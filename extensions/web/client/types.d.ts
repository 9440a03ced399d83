// the two entry points of react-reconciler this client uses (the package ships no types)
declare module "react-reconciler" {
  interface Reconciler {
    createContainer(container: unknown, tag: number, hydration: null, strict: boolean, concurrentOverride: null, prefix: string, onUncaught: (e: unknown) => void, onCaught: (e: unknown) => void, onRecoverable: (e: unknown) => void, onTransition: () => void): unknown;
    updateContainer(tree: unknown, root: unknown, parent: null, done: () => void): void;
  }
  export default function createReconciler(host: never): Reconciler;
}
declare module "react-reconciler/constants.js" {
  export const ConcurrentRoot: number;
  export const DefaultEventPriority: number;
  export const DiscreteEventPriority: number;
  export const NoEventPriority: number;
}

import { useSyncExternalStore } from "react";

/**
 * A value kept outside React (module state) that components read live: each `set`, even of the same
 * value, has React check every component reading it through `useValue`, and re-render those whose
 * result changed.
 */
export function createStore<T>(initial: T) {
  let value = initial;
  const listeners = new Set<() => void>();
  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  };
  return {
    get: () => value,
    set(next: T) {
      value = next;
      listeners.forEach((listener) => listener());
    },
    /** The value, or what `select` makes of it (a component re-renders only when that changes). */
    useValue<S = T>(select?: (value: T) => S): S {
      const snapshot = () => (select ? select(value) : value) as S;
      return useSyncExternalStore(subscribe, snapshot, snapshot);
    },
  };
}

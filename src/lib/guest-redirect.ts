import { useSyncExternalStore } from "react";

/*
 * Sign-up signs the new user in (Convex Auth) but the spec sends them to /login afterwards. While a
 * sign-up is finishing, the guest-only guard must not bounce them to / first.
 */
let held = 0;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

export async function holdGuestRedirect<T>(work: () => Promise<T>): Promise<T> {
  held++;
  emit();
  try {
    return await work();
  } finally {
    held--;
    emit();
  }
}

export function useGuestRedirectHeld(): boolean {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => held > 0,
  );
}

import { createStore } from "@/lib/external-store";

/*
 * Sign-up signs the new user in (Convex Auth) but the spec sends them to /login afterwards. While a
 * sign-up is finishing, the guest-only guard must not bounce them to / first.
 */
const held = createStore(0);

export async function holdGuestRedirect<T>(work: () => Promise<T>): Promise<T> {
  held.set(held.get() + 1);
  try {
    return await work();
  } finally {
    held.set(held.get() - 1);
  }
}

export function useGuestRedirectHeld(): boolean {
  return held.useValue((count) => count > 0);
}

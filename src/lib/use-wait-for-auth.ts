import { useConvexAuth } from "convex/react";
import { useCallback, useEffect, useRef } from "react";

/** How long to wait for the server to confirm a new token before going on regardless. */
const CONFIRM_TIMEOUT_MS = 10_000;

/**
 * Resolves once the Convex server has accepted the client's token. A call made right after
 * `signIn` would otherwise reach the server before the new token does, and run signed out.
 */
export function useWaitForAuthenticated(): () => Promise<void> {
  const { isAuthenticated } = useConvexAuth();
  const state = useRef({ isAuthenticated, waiters: [] as (() => void)[] });
  useEffect(() => {
    state.current.isAuthenticated = isAuthenticated;
    if (isAuthenticated) state.current.waiters.splice(0).forEach((wake) => wake());
  }, [isAuthenticated]);
  return useCallback(() => {
    if (state.current.isAuthenticated) return Promise.resolve();
    return new Promise<void>((resolve) => {
      state.current.waiters.push(resolve);
      setTimeout(resolve, CONFIRM_TIMEOUT_MS);
    });
  }, []);
}

import { useEffect } from "react";

/** Set while this device holds a session; kept by the header (useKeepSessionHint). */
const HINT_KEY = "gharsewa.session";

type AuthState = { isLoading: boolean; isAuthenticated: boolean };

function hinted(): boolean {
  try {
    return localStorage.getItem(HINT_KEY) !== null;
  } catch {
    return true;
  }
}

/** Remembers whether this device holds a session, once the auth library has settled. */
export function useKeepSessionHint({ isLoading, isAuthenticated }: AuthState): void {
  useEffect(() => {
    if (isLoading) return;
    try {
      if (isAuthenticated) localStorage.setItem(HINT_KEY, "1");
      else localStorage.removeItem(HINT_KEY);
    } catch {
      // storage refused (private mode): every visit waits for the library, as without the hint
    }
  }, [isLoading, isAuthenticated]);
}

/**
 * useConvexAuth's answer for the pages a visitor lands on (the landing, sign-in and sign-up). On a device that
 * holds no session, "not signed in" at once, where the library says "loading" until an effect has
 * read its storage: the visitor's page is then the first paint, not a loading state and a second
 * render of everything (the landing's largest paint came ~600 ms after its first at 4× CPU). A
 * session found after all takes over as a sign-in does.
 */
export function visitorAuth(auth: AuthState): AuthState {
  if (auth.isLoading && !auth.isAuthenticated && !hinted())
    return { isLoading: false, isAuthenticated: false };
  return auth;
}

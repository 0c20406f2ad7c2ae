import { renderHook } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";

import { useKeepSessionHint, visitorAuth } from "@/lib/visitor-auth";

let auth = { isLoading: true, isAuthenticated: false };
const useVisitorAuth = () => visitorAuth(auth);

describe("visitorAuth", () => {
  beforeEach(() => localStorage.clear());

  it("says 'not signed in' at once on a device that never held a session", () => {
    auth = { isLoading: true, isAuthenticated: false };
    const { result } = renderHook(() => useVisitorAuth());
    expect(result.current).toEqual({ isLoading: false, isAuthenticated: false });
  });

  it("waits for the library on a device that holds a session", () => {
    auth = { isLoading: false, isAuthenticated: true };
    renderHook(() => useKeepSessionHint(auth));
    auth = { isLoading: true, isAuthenticated: false };
    const { result } = renderHook(() => useVisitorAuth());
    expect(result.current).toEqual({ isLoading: true, isAuthenticated: false });
  });

  it("forgets the session once the library says nobody is signed in", () => {
    auth = { isLoading: false, isAuthenticated: true };
    const { rerender } = renderHook(() => useKeepSessionHint(auth));
    auth = { isLoading: false, isAuthenticated: false };
    rerender();
    auth = { isLoading: true, isAuthenticated: false };
    expect(renderHook(() => useVisitorAuth()).result.current.isLoading).toBe(false);
  });

  it("keeps the hint while the library is still loading", () => {
    auth = { isLoading: false, isAuthenticated: true };
    const { rerender } = renderHook(() => useKeepSessionHint(auth));
    auth = { isLoading: true, isAuthenticated: false };
    rerender();
    expect(renderHook(() => useVisitorAuth()).result.current.isLoading).toBe(true);
  });

  it("passes a signing-in session through as the library has it", () => {
    auth = { isLoading: true, isAuthenticated: true };
    expect(renderHook(() => useVisitorAuth()).result.current).toEqual(auth);
  });
});

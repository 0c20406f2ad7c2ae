import { useAuthToken } from "@convex-dev/auth/react";
import { useConvexAuth, useMutation } from "convex/react";
import { useEffect } from "react";
import { api } from "@convex/_generated/api";
import { sessionOfToken } from "@/lib/auth-token";

/**
 * Tells the server which browser holds this session, when the app opens and whenever it comes back
 * into view: the account's devices list names the device and when it was last seen (the server moves
 * "last seen" at most once a minute).
 */
export default function DeviceSeen() {
  const { isAuthenticated } = useConvexAuth();
  const session = sessionOfToken(useAuthToken());
  const seen = useMutation(api.devices.seen);

  useEffect(() => {
    if (!isAuthenticated || session === null) return;
    const report = () => {
      if (document.visibilityState === "visible")
        void seen({ userAgent: navigator.userAgent }).catch(() => undefined);
    };
    report();
    document.addEventListener("visibilitychange", report);
    return () => document.removeEventListener("visibilitychange", report);
  }, [isAuthenticated, session, seen]);

  return null;
}

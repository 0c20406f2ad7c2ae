import { useAuthActions } from "@convex-dev/auth/react";
import { useState } from "react";
import { toast } from "sonner";

/**
 * Signs `name` out with the spec's toasts, then runs `afterLogout` (close, navigate). `busy` is true
 * while the sign-out is under way.
 */
export function useLogout(name: string, afterLogout: () => void) {
  const { signOut } = useAuthActions();
  const [busy, setBusy] = useState(false);

  async function logout() {
    setBusy(true);
    try {
      await signOut();
      toast.success(`${name} has been logged out successfully`);
      afterLogout();
    } catch {
      toast.error("Sign-out failed. Please try again.");
    } finally {
      setBusy(false);
    }
  }

  return { logout, busy };
}

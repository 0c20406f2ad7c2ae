import { useAuthActions } from "@convex-dev/auth/react";
import { useMutation } from "convex/react";
import { useState } from "react";
import { toast } from "sonner";
import { api } from "@convex/_generated/api";
import { m } from "@/i18n/paraglide/messages";
import { leaveHere } from "@/lib/leaving-here";
import { pushSupported, unsubscribeDevice } from "@/lib/push-device";

/**
 * Signs `name` out with the spec's toasts, then runs `afterLogout` (close, navigate). `busy` is true
 * while the sign-out is under way.
 */
export function useLogout(name: string, afterLogout: () => unknown) {
  const { signOut } = useAuthActions();
  const unsubscribe = useMutation(api.push.unsubscribe);
  const leave = useMutation(api.presence.leave);
  const [busy, setBusy] = useState(false);

  /** This device stops ringing for the account (while still signed in, which the server needs). */
  async function turnOffAlerts() {
    try {
      const endpoint = await unsubscribeDevice();
      if (endpoint !== null) await unsubscribe({ endpoint });
    } catch {
      // offline: the push service's 410 for the ended subscription removes it later
    }
  }

  /** Offline for everyone at once (and off the map), not when the heartbeat times out. */
  async function goOffline() {
    try {
      await leave();
    } catch {
      // offline: the heartbeat's timeout takes the user offline later
    }
  }

  async function logout() {
    setBusy(true);
    try {
      await leaveHere(async () => {
        if (pushSupported()) await turnOffAlerts();
        await goOffline();
        await signOut();
        toast.success(m.logout_done({ name }));
        await afterLogout(); // while leaving: a page's sign-in redirect must not overtake it
      });
    } catch {
      toast.error(m.logout_failed());
    } finally {
      setBusy(false);
    }
  }

  return { logout, busy };
}

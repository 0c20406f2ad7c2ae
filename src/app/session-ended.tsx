import { useAuthActions, useAuthToken } from "@convex-dev/auth/react";
import { useConvexAuth, useQuery } from "convex/react";
import { useEffect } from "react";
import { toast } from "sonner";
import { api } from "@convex/_generated/api";
import { sessionOfToken } from "@/lib/auth-token";
import { forgetLastKnownJobs } from "@/lib/last-known-jobs";
import { leavingHere } from "@/lib/leaving-here";
import { m } from "@/i18n/paraglide/messages";

/**
 * Signs this tab out the moment its session ends elsewhere (another device signed it out, the password
 * was changed or reset), and says so. Only for the session this tab still holds: a sign-in that has
 * just replaced it is left alone. Once nobody is signed in here, forgets the jobs this device kept
 * for the dashboard offline (lib/last-known-jobs.ts); offline, a kept session is still loading (the
 * server cannot confirm it), so they stay.
 */
export default function SessionEnded() {
  const { isLoading, isAuthenticated } = useConvexAuth();
  const token = useAuthToken();
  const { signOut } = useAuthActions();
  const ended = useQuery(api.devices.endedSession, isAuthenticated ? {} : "skip");
  const mine = ended != null && ended === sessionOfToken(token);

  useEffect(() => {
    if (!mine) return;
    const told = leavingHere();
    void signOut()
      .catch(() => undefined)
      .then(() => {
        if (!told) toast.info(m.session_ended_here());
      });
  }, [mine, signOut]);

  useEffect(() => {
    if (!isLoading && !isAuthenticated) forgetLastKnownJobs();
  }, [isLoading, isAuthenticated]);

  return null;
}

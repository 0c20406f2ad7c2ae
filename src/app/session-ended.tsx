import { useAuthActions, useAuthToken } from "@convex-dev/auth/react";
import { useConvexAuth, useQuery } from "convex/react";
import { useEffect } from "react";
import { toast } from "sonner";
import { api } from "@convex/_generated/api";
import { leavingHere } from "@/lib/leaving-here";
import { m } from "@/i18n/paraglide/messages";

/** The session id a token of @convex-dev/auth names (its subject is "<userId>|<sessionId>"). */
export function sessionOfToken(token: string | null): string | null {
  const payload = token?.split(".")[1];
  if (payload === undefined) return null;
  try {
    const json = atob(payload.replace(/-/g, "+").replace(/_/g, "/"));
    const subject = (JSON.parse(json) as { sub?: unknown }).sub;
    return typeof subject === "string" ? (subject.split("|")[1] ?? null) : null;
  } catch {
    return null;
  }
}

/**
 * Signs this tab out the moment its session ends elsewhere (another device signed it out, the password
 * was changed or reset), and says so. Only for the session this tab still holds: a sign-in that has
 * just replaced it is left alone.
 */
export default function SessionEnded() {
  const { isAuthenticated } = useConvexAuth();
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

  return null;
}

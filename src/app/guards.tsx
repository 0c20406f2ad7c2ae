import { useState } from "react";
import { Navigate, Outlet, useSearchParams } from "react-router-dom";
import { useConvexAuth, useQuery } from "convex/react";
import { api } from "@convex/_generated/api";
import { LoadingState } from "@/components/ui/states";
import { useGuestRedirectHeld } from "@/lib/guest-redirect";
import { leavingHere } from "@/lib/leaving-here";
import { visitorAuth } from "@/lib/visitor-auth";
import { paths } from "@/lib/paths";
import { RETURN_PARAM, safeReturnTo } from "@/lib/booking-intent";

/**
 * Layout route for /login and the sign-up pages: a signed-in user goes to their role's home (spec §4),
 * a customer back to where they were (?returnTo, lib/booking-intent.ts).
 */
export function GuestOnly() {
  const { isLoading, isAuthenticated } = visitorAuth(useConvexAuth());
  const viewer = useQuery(api.users.viewer, isAuthenticated ? {} : "skip");
  const held = useGuestRedirectHeld();
  const returnTo = safeReturnTo(useSearchParams()[0].get(RETURN_PARAM));
  // Once a visitor has the form, auth settling again keeps it mounted: unmounting would wipe what
  // they are typing.
  const [shownToGuest, setShownToGuest] = useState(false);
  if (!isLoading && !isAuthenticated && !shownToGuest) setShownToGuest(true);
  if (held) return <Outlet />;
  if (isLoading || (isAuthenticated && viewer === undefined))
    return shownToGuest ? <Outlet /> : <LoadingState />;
  if (!isAuthenticated) return <Outlet />;
  const home = viewer ? paths.roleHome(viewer.role) : paths.home();
  return <Navigate to={viewer?.role === "customer" ? (returnTo ?? home) : home} replace />;
}

/**
 * A role's page without a signed-in user: to its sign-in, unless this tab is signing out or deleting
 * its account on purpose (it goes where that leads, and must not be overtaken by this redirect).
 */
function SignedOut({ to }: { to: string }) {
  return leavingHere() ? <LoadingState /> : <Navigate to={to} replace />;
}

/** Layout route for customer-only pages: visitors go to /login, other roles to /. */
export function CustomerOnly() {
  const { isLoading, isAuthenticated } = useConvexAuth();
  const viewer = useQuery(api.users.viewer, isAuthenticated ? {} : "skip");
  if (isLoading || (isAuthenticated && viewer === undefined)) return <LoadingState />;
  if (!isAuthenticated || viewer === null) return <SignedOut to={paths.login()} />;
  return viewer?.role === "customer" ? <Outlet /> : <Navigate to={paths.home()} replace />;
}

/** Layout route for professional-only pages: visitors go to the professional sign-in, other roles to /. */
export function ProfessionalOnly() {
  const { isLoading, isAuthenticated } = useConvexAuth();
  const viewer = useQuery(api.users.viewer, isAuthenticated ? {} : "skip");
  if (isLoading || (isAuthenticated && viewer === undefined)) return <LoadingState />;
  if (!isAuthenticated || viewer === null) return <SignedOut to={paths.professionalSignin()} />;
  return viewer?.role === "professional" ? <Outlet /> : <Navigate to={paths.home()} replace />;
}

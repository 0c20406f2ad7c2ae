import { Navigate, Outlet } from "react-router-dom";
import { useConvexAuth, useQuery } from "convex/react";
import { api } from "@convex/_generated/api";
import { LoadingState } from "@/components/ui/states";
import { useGuestRedirectHeld } from "@/lib/guest-redirect";
import { paths } from "@/lib/paths";

/** Layout route for /login and the sign-up pages: a signed-in user goes to / (spec §4). */
export function GuestOnly() {
  const { isLoading, isAuthenticated } = useConvexAuth();
  const held = useGuestRedirectHeld();
  if (held) return <Outlet />;
  if (isLoading) return <LoadingState />;
  return isAuthenticated ? <Navigate to={paths.home()} replace /> : <Outlet />;
}

/** Layout route for customer-only pages: visitors go to /login, other roles to /. */
export function CustomerOnly() {
  const { isLoading, isAuthenticated } = useConvexAuth();
  const viewer = useQuery(api.users.viewer, isAuthenticated ? {} : "skip");
  if (isLoading || (isAuthenticated && viewer === undefined)) return <LoadingState />;
  if (!isAuthenticated || viewer === null) return <Navigate to={paths.login()} replace />;
  return viewer?.role === "customer" ? <Outlet /> : <Navigate to={paths.home()} replace />;
}

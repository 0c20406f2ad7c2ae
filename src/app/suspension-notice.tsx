import { lazy, Suspense, useState } from "react";
import { useConvexAuth } from "convex/react";

const SuspensionDialog = lazy(() => import("@/app/suspension-dialog"));

/**
 * Watches a signed-in account for suspension (suspension-dialog.tsx), loaded at sign-in: visitors
 * never need it. Once mounted it stays, so its notice outlives the sign-out it causes.
 */
export function SuspensionNotice() {
  const { isAuthenticated } = useConvexAuth();
  const [watching, setWatching] = useState(false);
  if (isAuthenticated && !watching) setWatching(true);
  return (
    watching && (
      <Suspense fallback={null}>
        <SuspensionDialog />
      </Suspense>
    )
  );
}

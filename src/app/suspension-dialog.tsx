import { useAuthActions } from "@convex-dev/auth/react";
import { useConvexAuth, useQuery } from "convex/react";
import { useEffect, useState } from "react";
import { api } from "@convex/_generated/api";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { m } from "@/i18n/paraglide/messages";

/**
 * Signs this tab out the moment an admin suspends the account (the server has already ended its
 * sessions, so every query answers as to a visitor) and says why, until the user closes the notice.
 */
export default function SuspensionDialog() {
  const { isAuthenticated } = useConvexAuth();
  const { signOut } = useAuthActions();
  const status = useQuery(api.users.accountStatus, isAuthenticated ? {} : "skip");
  const [shown, setShown] = useState(false);
  const suspended = isAuthenticated && status === "suspended";
  // stays shown after the sign-out below, until the user closes it
  if (suspended && !shown) setShown(true);

  useEffect(() => {
    if (!suspended) return;
    // the token still names the user until it expires: drop it, as a sign-out would
    void signOut().catch(() => undefined);
  }, [suspended, signOut]);

  return (
    <Dialog
      open={shown}
      onClose={() => setShown(false)}
      title={m.suspended_title()}
      description={m.error_account_suspended()}
    >
      <div className="mt-4 flex justify-end">
        <Button onClick={() => setShown(false)}>{m.suspended_ok()}</Button>
      </div>
    </Dialog>
  );
}

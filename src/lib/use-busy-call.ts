import { useCallback, useState } from "react";
import { toast } from "sonner";
import { errorMessage } from "@/lib/errors";

/**
 * A server call a button or form makes: `busy` while it runs (the control shows it and is disabled),
 * a refusal told in a toast worded by errorMessage with `failed` as the fallback. `run` resolves to
 * whether the call went through. With `staysBusy`, a call that went through leaves the control busy:
 * it is closing or navigating away, and must not be sent again meanwhile.
 */
export function useBusyCall({ staysBusy = false }: { staysBusy?: boolean } = {}) {
  const [busy, setBusy] = useState(false);
  const run = useCallback(
    async (call: () => Promise<unknown>, failed: string) => {
      setBusy(true);
      try {
        await call();
        if (!staysBusy) setBusy(false);
        return true;
      } catch (error) {
        setBusy(false);
        toast.error(errorMessage(error, failed));
        return false;
      }
    },
    [staysBusy],
  );
  return { busy, run };
}

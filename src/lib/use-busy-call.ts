import { useCallback, useState } from "react";
import { toast } from "sonner";
import { errorMessage } from "@/lib/errors";

/**
 * A server call a button or form makes: `busy` while it runs (the control shows it and is disabled),
 * a refusal told in a toast worded by errorMessage with `failed` as the fallback. `run` resolves to
 * whether the call went through.
 */
export function useBusyCall() {
  const [busy, setBusy] = useState(false);
  const run = useCallback(async (call: () => Promise<unknown>, failed: string) => {
    setBusy(true);
    try {
      await call();
      return true;
    } catch (error) {
      toast.error(errorMessage(error, failed));
      return false;
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, run };
}

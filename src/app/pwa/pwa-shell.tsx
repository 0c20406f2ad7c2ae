import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { afterLoad } from "@/lib/after-load";
import { captureInstallPrompt } from "@/lib/install-prompt";
import { useOnline } from "@/lib/use-online";
import { m } from "@/i18n/paraglide/messages";
import { importWhenOnline, usePartsMissing } from "@/lib/import-when-online";

if (typeof window !== "undefined") captureInstallPrompt();

/**
 * The installable app around the pages: registers the service worker once the first page has loaded
 * and the browser is idle (workbox-window is fetched only then), says when the phone is offline,
 * offers a new version when one is waiting, and a reload when a part's code is gone from the server.
 */
export function PwaShell() {
  const online = useOnline();
  const [activateUpdate, setActivateUpdate] = useState<(() => void) | null>(null);
  const partsMissing = usePartsMissing();
  const offer = activateUpdate
    ? { text: m.pwa_update_ready(), action: m.pwa_update(), act: activateUpdate }
    : partsMissing && { text: m.pwa_part_missing(), action: m.pwa_reload(), act: reload };

  useEffect(() => {
    if (!import.meta.env.PROD || !("serviceWorker" in navigator)) return;
    return afterLoad(
      () =>
        void importWhenOnline(() => import("@/app/pwa/register-sw")).then((m) =>
          m.registerServiceWorker((activate) => setActivateUpdate(() => activate)),
        ),
    );
  }, []);

  return (
    <>
      {!online && (
        <p
          role="status"
          className="sticky top-0 z-50 bg-slate-800 px-3 py-2 text-center text-sm text-white"
        >
          {m.pwa_offline()}
        </p>
      )}
      {offer && (
        <div
          role="alert"
          className="fixed inset-x-3 bottom-3 z-50 mx-auto flex max-w-md items-center justify-between gap-3 rounded-xl bg-slate-900 px-4 py-3 text-sm text-white shadow-lg"
        >
          <span>{offer.text}</span>
          <Button size="sm" onClick={offer.act}>
            {offer.action}
          </Button>
        </div>
      )}
    </>
  );
}

const reload = () => window.location.reload();

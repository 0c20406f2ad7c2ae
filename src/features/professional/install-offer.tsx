import { useState } from "react";
import { Button } from "@/components/ui/button";
import { promptInstall, useCanInstall } from "@/lib/install-prompt";
import { m } from "@/i18n/paraglide/messages";

const DISMISSED_KEY = "gharsewa:install-offer-dismissed";

function dismissedBefore(): boolean {
  try {
    return localStorage.getItem(DISMISSED_KEY) === "1";
  } catch {
    return false;
  }
}

/**
 * Offers to install GharSewa on the phone when the browser allows it: on the dashboard, and with more
 * weight once the professional has taken a job (then a missed request costs them work).
 */
export function InstallOffer({ hasTakenJob }: { hasTakenJob: boolean }) {
  const canInstall = useCanInstall();
  const [dismissed, setDismissed] = useState(dismissedBefore);
  if (!canInstall || dismissed) return null;

  function dismiss() {
    try {
      localStorage.setItem(DISMISSED_KEY, "1");
    } catch {
      // private mode: hidden for this page only
    }
    setDismissed(true);
  }

  return (
    <section
      aria-labelledby="install-heading"
      className="mb-4 flex flex-wrap items-center justify-between gap-3 rounded-2xl bg-brand-50 p-4 ring-1 ring-brand-100"
    >
      <div>
        <h2 id="install-heading" className="font-semibold text-brand-800">
          {hasTakenJob ? m.install_first_job() : m.install_title()}
        </h2>
        <p className="text-sm text-slate-700">{m.install_text()}</p>
      </div>
      <div className="flex gap-2">
        <Button size="sm" onClick={() => void promptInstall()}>
          {m.install_button()}
        </Button>
        <Button variant="ghost" size="sm" onClick={dismiss}>
          {m.install_not_now()}
        </Button>
      </div>
    </section>
  );
}

import { Button } from "@/components/ui/button";
import { formatRelative } from "@/lib/format";
import { useDeviceAlerts, type DeviceAlertsState } from "@/lib/use-device-alerts";
import { useRequestSound } from "@/features/professional/new-request-signal";
import { m } from "@/i18n/paraglide/messages";

const box = "rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5";

const SAID: Record<DeviceAlertsState, () => string> = {
  unsupported: m.alerts_pro_unsupported,
  unconfigured: m.alerts_pro_unconfigured,
  checking: m.alerts_pro_checking,
  on: m.alerts_pro_on,
  off: m.alerts_pro_off,
};

const LAST_RESULT = {
  sent: m.alerts_last_sent,
  failed: m.alerts_last_failed,
  retrying: m.alerts_last_retrying,
};

/**
 * "Get request alerts on this phone": subscribes this device to Web Push, shows whether alerts are
 * on here, and the sound for requests arriving while the page is open.
 */
export function RequestAlerts({ now }: { now: number }) {
  const alerts = useDeviceAlerts();
  const [sound, setSound] = useRequestSound();
  const last = alerts.lastResult;
  return (
    <section aria-labelledby="alerts-heading" className={box}>
      <h2 id="alerts-heading" className="text-lg font-semibold text-slate-900">
        {m.alerts_heading()}
      </h2>
      <p className="mt-1 text-sm text-slate-700" aria-live="polite">
        {SAID[alerts.state]()}
      </p>
      {alerts.state === "on" && last && (
        <p className="mt-1 text-xs text-slate-500">
          {LAST_RESULT[last.status]({ when: formatRelative(last.at, now) })}
        </p>
      )}
      {alerts.problem && (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {alerts.problem}
        </p>
      )}
      <div className="mt-3 flex flex-wrap items-center gap-3">
        {alerts.state === "on" && (
          <Button
            variant="secondary"
            size="sm"
            disabled={alerts.busy}
            onClick={() => void alerts.turnOff()}
          >
            {m.alerts_pro_turn_off()}
          </Button>
        )}
        {alerts.state === "off" && (
          <Button size="sm" disabled={alerts.busy} onClick={() => void alerts.turnOn()}>
            {m.alerts_pro_turn_on()}
          </Button>
        )}
        <label className="flex min-h-11 items-center gap-2 text-sm text-slate-700">
          <input
            type="checkbox"
            checked={sound}
            onChange={(e) => setSound(e.target.checked)}
            className="h-4 w-4 accent-brand-700"
          />
          {m.alerts_sound()}
        </label>
      </div>
    </section>
  );
}

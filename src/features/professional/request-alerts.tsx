import { Button } from "@/components/ui/button";
import { formatRelative } from "@/lib/format";
import { useDeviceAlerts, type DeviceAlertsState } from "@/lib/use-device-alerts";
import { useRequestSound } from "@/features/professional/new-request-signal";

const box = "rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5";

const SAID: Record<DeviceAlertsState, string> = {
  unsupported:
    "This browser cannot show alerts. Open GharSewa in Chrome on your phone and install it.",
  unconfigured: "Alerts are not set up on this server yet.",
  checking: "Checking this phone…",
  on: "Alerts are on for this phone: new requests ring it even when GharSewa is closed.",
  off: "Alerts are off for this phone. Requests expire if nobody answers them in time.",
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
        Request alerts
      </h2>
      <p className="mt-1 text-sm text-slate-700" aria-live="polite">
        {SAID[alerts.state]}
      </p>
      {alerts.state === "on" && last && (
        <p className="mt-1 text-xs text-slate-500">
          Last alert {last.status === "sent" ? "delivered" : last.status}{" "}
          {formatRelative(last.at, now)}
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
            Turn off alerts on this phone
          </Button>
        )}
        {alerts.state === "off" && (
          <Button size="sm" disabled={alerts.busy} onClick={() => void alerts.turnOn()}>
            Get request alerts on this phone
          </Button>
        )}
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input
            type="checkbox"
            checked={sound}
            onChange={(e) => setSound(e.target.checked)}
            className="h-4 w-4 accent-brand-700"
          />
          Sound and vibration while this page is open
        </label>
      </div>
    </section>
  );
}

import { Button } from "@/components/ui/button";
import { useDeviceAlerts } from "@/lib/use-device-alerts";
import { m } from "@/i18n/paraglide/messages";

/**
 * A customer's offer of status alerts (accepted, on the way, arrived) on this phone, above My
 * Bookings. Says nothing where the browser or the server cannot do it.
 */
export function BookingAlerts() {
  const alerts = useDeviceAlerts();
  if (alerts.state !== "on" && alerts.state !== "off") return null;
  return (
    <div className="mb-4 flex flex-wrap items-center justify-between gap-3 rounded-2xl bg-brand-50 p-3 text-sm ring-1 ring-brand-100">
      <p aria-live="polite" className="text-slate-800">
        {alerts.state === "on" ? m.alerts_customer_on() : m.alerts_customer_off()}
      </p>
      {alerts.problem && (
        <p role="alert" className="w-full text-red-700">
          {alerts.problem}
        </p>
      )}
      {alerts.state === "on" ? (
        <Button
          variant="secondary"
          size="sm"
          disabled={alerts.busy}
          onClick={() => void alerts.turnOff()}
        >
          {m.alerts_turn_off()}
        </Button>
      ) : (
        <Button size="sm" disabled={alerts.busy} onClick={() => void alerts.turnOn()}>
          {m.alerts_customer_turn_on()}
        </Button>
      )}
    </div>
  );
}

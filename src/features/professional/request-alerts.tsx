import { useMutation, useQuery } from "convex/react";
import { useEffect, useState } from "react";
import { api } from "@convex/_generated/api";
import { Button } from "@/components/ui/button";
import { errorMessage } from "@/lib/errors";
import { formatRelative } from "@/lib/format";
import {
  deviceSubscription,
  PushUnavailable,
  pushSupported,
  subscribeDevice,
  unsubscribeDevice,
} from "@/lib/push-device";
import { useRequestSound } from "@/features/professional/new-request-signal";

const box = "rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5";

/**
 * "Get request alerts on this phone": subscribes this device to Web Push, shows whether alerts are
 * on here, and the sound for requests arriving while the page is open.
 */
export function RequestAlerts({ now }: { now: number }) {
  const config = useQuery(api.push.config);
  // undefined: still reading this device's subscription
  const [endpoint, setEndpoint] = useState<string | null | undefined>(undefined);
  const status = useQuery(api.push.status, endpoint ? { endpoint } : "skip");
  const subscribe = useMutation(api.push.subscribe);
  const unsubscribe = useMutation(api.push.unsubscribe);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [sound, setSound] = useRequestSound();

  useEffect(() => {
    let live = true;
    void deviceSubscription().then((sub) => live && setEndpoint(sub?.endpoint ?? null));
    return () => {
      live = false;
    };
  }, []);

  async function turnOn(publicKey: string) {
    setBusy(true);
    setProblem(null);
    try {
      const sub = await subscribeDevice(publicKey);
      await subscribe(sub);
      setEndpoint(sub.endpoint);
    } catch (error) {
      setProblem(
        error instanceof PushUnavailable
          ? error.message
          : errorMessage(error, "Alerts could not be turned on. Please try again."),
      );
    } finally {
      setBusy(false);
    }
  }

  async function turnOff() {
    setBusy(true);
    setProblem(null);
    try {
      const gone = await unsubscribeDevice();
      if (gone !== null) await unsubscribe({ endpoint: gone });
      setEndpoint(null);
    } catch (error) {
      setProblem(errorMessage(error, "Alerts could not be turned off. Please try again."));
    } finally {
      setBusy(false);
    }
  }

  const on = status?.on === true;
  const last = status?.lastResult;
  return (
    <section aria-labelledby="alerts-heading" className={box}>
      <h2 id="alerts-heading" className="text-lg font-semibold text-slate-900">
        Request alerts
      </h2>
      <p className="mt-1 text-sm text-slate-700" aria-live="polite">
        {!pushSupported()
          ? "This browser cannot show alerts. Open GharSewa in Chrome on your phone and install it."
          : config !== undefined && config.publicKey === null
            ? "Alerts are not set up on this server yet."
            : endpoint === undefined || (endpoint !== null && status === undefined)
              ? "Checking this phone…"
              : on
                ? "Alerts are on for this phone: new requests ring it even when GharSewa is closed."
                : "Alerts are off for this phone. Requests expire if nobody answers them in time."}
      </p>
      {on && last && (
        <p className="mt-1 text-xs text-slate-500">
          Last alert {last.status === "sent" ? "delivered" : last.status}{" "}
          {formatRelative(last.at, now)}
        </p>
      )}
      {problem && (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {problem}
        </p>
      )}
      <div className="mt-3 flex flex-wrap items-center gap-3">
        {pushSupported() &&
          config?.publicKey &&
          endpoint !== undefined &&
          (on ? (
            <Button variant="secondary" size="sm" disabled={busy} onClick={() => void turnOff()}>
              Turn off alerts on this phone
            </Button>
          ) : (
            <Button size="sm" disabled={busy} onClick={() => void turnOn(config.publicKey!)}>
              Get request alerts on this phone
            </Button>
          ))}
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

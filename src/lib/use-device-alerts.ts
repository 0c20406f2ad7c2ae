import { useMutation, useQuery } from "convex/react";
import { useEffect, useState } from "react";
import { api } from "@convex/_generated/api";
import { errorData, errorMessage } from "@/lib/errors";
import {
  deviceSubscription,
  PushUnavailable,
  pushSupported,
  subscribeDevice,
  unsubscribeDevice,
} from "@/lib/push-device";
import { m } from "@/i18n/paraglide/messages";

export type DeviceAlertsState =
  | "unsupported" // no Web Push in this browser
  | "unconfigured" // the deployment has no VAPID key
  | "checking"
  | "on"
  | "off";

/**
 * Booking alerts (Web Push) on this device for the signed-in user: the state, how the last alert
 * went, and turning them on (from a tap: the browser asks for permission) or off.
 */
export function useDeviceAlerts() {
  const config = useQuery(api.push.config);
  // undefined: still reading this device's subscription
  const [endpoint, setEndpoint] = useState<string | null | undefined>(undefined);
  const status = useQuery(api.push.status, endpoint ? { endpoint } : "skip");
  const subscribe = useMutation(api.push.subscribe);
  const unsubscribe = useMutation(api.push.unsubscribe);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    void deviceSubscription().then((sub) => live && setEndpoint(sub?.endpoint ?? null));
    return () => {
      live = false;
    };
  }, []);

  async function run(work: () => Promise<void>, failure: string) {
    setBusy(true);
    setProblem(null);
    try {
      await work();
    } catch (error) {
      setProblem(error instanceof PushUnavailable ? error.message : errorMessage(error, failure));
    } finally {
      setBusy(false);
    }
  }

  const publicKey = config?.publicKey;
  const state: DeviceAlertsState = !pushSupported()
    ? "unsupported"
    : publicKey === null
      ? "unconfigured"
      : publicKey === undefined || endpoint === undefined || (endpoint !== null && !status)
        ? "checking"
        : status?.on
          ? "on"
          : "off";

  return {
    state,
    lastResult: status?.lastResult ?? null,
    busy,
    problem,
    turnOn: () =>
      run(async () => {
        let sub = await subscribeDevice(publicKey!);
        try {
          await subscribe(sub);
        } catch (error) {
          if (errorData(error)?.code !== "DEVICE_TAKEN") throw error;
          // the browser still holds an account's subscription that was never ended: start afresh
          await unsubscribeDevice();
          sub = await subscribeDevice(publicKey!);
          await subscribe(sub);
        }
        setEndpoint(sub.endpoint);
      }, m.alerts_on_failed()),
    turnOff: () =>
      run(async () => {
        const gone = await unsubscribeDevice();
        if (gone !== null) await unsubscribe({ endpoint: gone });
        setEndpoint(null);
      }, m.alerts_off_failed()),
  };
}

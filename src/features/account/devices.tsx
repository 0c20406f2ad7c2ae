import { useMutation, useQuery } from "convex/react";
import { useState } from "react";
import { toast } from "sonner";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { Button } from "@/components/ui/button";
import { LoadingState } from "@/components/ui/states";
import { errorMessage } from "@/lib/errors";
import { formatDateTime, formatRelative } from "@/lib/format";
import { useNow } from "@/lib/use-now";
import { m } from "@/i18n/paraglide/messages";

type Device = {
  sessionId: Id<"authSessions">;
  browser: string | null;
  system: string | null;
  firstSeen: number;
  lastSeen: number;
  current: boolean;
};

const deviceName = (d: Device) =>
  m.devices_label({
    browser: d.browser ?? m.devices_unknown_browser(),
    system: d.system ?? m.devices_unknown_system(),
  });

/**
 * The account's signed-in devices, live: a device that signs in or out elsewhere appears or goes at
 * once. Any other device can be signed out, or all of them together.
 */
export function Devices() {
  const devices = useQuery(api.devices.list);
  const signOut = useMutation(api.devices.signOut);
  const signOutOthers = useMutation(api.devices.signOutOthers);
  const [busy, setBusy] = useState<string | null>(null);
  const now = useNow();

  async function run(key: string, work: () => Promise<unknown>, done: string) {
    setBusy(key);
    try {
      await work();
      toast.success(done);
    } catch (e) {
      toast.error(errorMessage(e, m.devices_failed()));
    } finally {
      setBusy(null);
    }
  }

  const others = devices?.filter((d) => !d.current).length ?? 0;
  return (
    <section
      aria-labelledby="devices"
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 id="devices" className="text-lg font-semibold">
        {m.devices_title()}
      </h2>
      <p className="mt-1 text-sm text-slate-600">{m.devices_text()}</p>
      {devices === undefined ? (
        <LoadingState />
      ) : (
        <>
          <ul className="mt-4 divide-y divide-slate-200">
            {devices.map((d) => (
              <li
                key={d.sessionId}
                aria-label={deviceName(d)}
                className="flex flex-wrap items-center justify-between gap-3 py-3"
              >
                <div className="min-w-0">
                  <p className="font-medium">
                    {deviceName(d)}
                    {d.current && (
                      <span className="ml-2 rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-800">
                        {m.devices_this_device()}
                      </span>
                    )}
                  </p>
                  <p className="text-sm text-slate-600">
                    {m.devices_signed_in({ when: formatDateTime(d.firstSeen) })}
                    {" · "}
                    {d.current
                      ? m.devices_active_now()
                      : m.devices_last_seen({ when: formatRelative(d.lastSeen, now) })}
                  </p>
                </div>
                {!d.current && (
                  <Button
                    variant="secondary"
                    size="sm"
                    disabled={busy !== null}
                    onClick={() =>
                      void run(
                        d.sessionId,
                        () => signOut({ sessionId: d.sessionId }),
                        m.devices_signed_out_one({ device: deviceName(d) }),
                      )
                    }
                  >
                    {busy === d.sessionId ? m.please_wait() : m.devices_sign_out()}
                  </Button>
                )}
              </li>
            ))}
          </ul>
          {others > 1 && (
            <Button
              variant="danger"
              className="mt-4"
              disabled={busy !== null}
              onClick={() =>
                void run("others", () => signOutOthers({}), m.devices_signed_out_others())
              }
            >
              {busy === "others" ? m.please_wait() : m.devices_sign_out_others()}
            </Button>
          )}
        </>
      )}
    </section>
  );
}

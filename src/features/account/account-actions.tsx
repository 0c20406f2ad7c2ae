import { useState } from "react";
import { useNavigate } from "react-router-dom";
import { useAction, useConvex } from "convex/react";
import { useAuthActions } from "@convex-dev/auth/react";
import { toast } from "sonner";
import type { FunctionReturnType } from "convex/server";
import { api } from "@convex/_generated/api";
import { cityName, SPECIALTIES } from "@convex/constants";
import { localCityName } from "@/i18n/places";
import { localLandingService } from "@/i18n/categories";
import { formatDigits, formatNumber } from "@/lib/numbers";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { errorData, errorMessage } from "@/lib/errors";
import { Form } from "@/components/form-element";
import { PasswordField } from "@/components/ui/inputs";
import { leaveHere } from "@/lib/leaving-here";
import { paths } from "@/lib/paths";
import { useBusyCall } from "@/lib/use-busy-call";
import { m } from "@/i18n/paraglide/messages";

export function BillingTab() {
  return (
    <div>
      <h1 className="text-2xl font-bold">{m.acc_tab_billing()}</h1>
      <div className="mt-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
        <p>{m.acc_billing_text()}</p>
        <p className="mt-2 text-sm text-slate-600">{m.acc_billing_later()}</p>
      </div>
    </div>
  );
}

type ExportedData = FunctionReturnType<typeof api.users.exportMyData>;

/** The export in words, beside its JSON: what is kept, without internal ids. */
function ExportSummary({ data }: { data: ExportedData }) {
  const { account, professional } = data;
  const rows: [string, string][] = [
    [m.field_full_name(), account.name ?? "—"],
    [m.acc_email(), account.email ?? "—"],
    [m.label_phone_short(), account.phone ? formatDigits(account.phone) : "—"],
    [m.label_address(), account.address || "—"],
    ...(professional
      ? ([
          [
            m.label_specialty(),
            localLandingService(
              SPECIALTIES.find((x) => x.slug === professional.specialty)?.name ??
                professional.specialty,
            ),
          ],
          [m.label_city(), localCityName(cityName(professional.city))],
        ] as [string, string][])
      : []),
    [
      m.acc_export_bookings(),
      formatNumber(data.bookingsAsCustomer.length + data.bookingsAsProfessional.length),
    ],
    [m.acc_export_reviews(), formatNumber(data.reviewsWritten.length)],
    [m.acc_export_messages(), formatNumber(data.messagesSent.length)],
    [m.acc_export_notifications(), formatNumber(data.notifications.length)],
  ];
  return (
    <section aria-labelledby="export-summary" className="mt-4 rounded-xl bg-slate-50 p-4">
      <h2 id="export-summary" className="font-semibold">
        {m.acc_export_summary()}
      </h2>
      <dl className="mt-2 grid gap-2 sm:grid-cols-2">
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt className="text-sm text-slate-500">{label}</dt>
            <dd className="font-medium break-words">{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

export function DataExportTab() {
  const convex = useConvex();
  const { busy, run } = useBusyCall();
  const [exported, setExported] = useState<ExportedData | null>(null);

  async function download() {
    const done = await run(async () => {
      const data = await convex.query(api.users.exportMyData, {});
      setExported(data);
      const blob = new Blob([JSON.stringify(data, null, 2)], { type: "application/json" });
      const url = URL.createObjectURL(blob);
      const a = document.createElement("a");
      a.href = url;
      a.download = `gharsewa-my-data-${new Date().toISOString().slice(0, 10)}.json`;
      a.click();
      URL.revokeObjectURL(url);
    }, m.acc_export_failed());
    if (done) toast.success(m.acc_export_done());
  }

  return (
    <div>
      <h1 className="text-2xl font-bold">{m.acc_tab_export()}</h1>
      <div className="mt-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
        <p>{m.acc_export_text()}</p>
        <Button className="mt-4" onClick={download} disabled={busy}>
          {busy ? m.state_preparing() : m.acc_export_button()}
        </Button>
        {exported && <ExportSummary data={exported} />}
      </div>
    </div>
  );
}

export function DeleteAccountTab({ name }: { name: string }) {
  const deleteAccount = useAction(api.users.deleteAccount);
  const { signOut } = useAuthActions();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const [password, setPassword] = useState("");
  const [wrong, setWrong] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  function close() {
    setConfirming(false);
    setPassword("");
    setWrong(undefined);
  }

  async function remove() {
    if (password === "") return setWrong(m.rule_enter_password());
    setBusy(true);
    try {
      await leaveHere(async () => {
        await deleteAccount({ password });
        toast.success(m.acc_delete_done({ name }));
        await navigate(paths.home());
        await signOut().catch(() => undefined); // the session is already gone with the account
      });
    } catch (e) {
      setBusy(false);
      // a wrong password keeps the dialog open, said at the field; anything else ends it
      if (errorData(e)?.code === "WRONG_PASSWORD")
        return setWrong(errorMessage(e, m.acc_delete_failed()));
      toast.error(errorMessage(e, m.acc_delete_failed()));
      close();
    }
  }

  return (
    <div>
      <h1 className="text-2xl font-bold text-red-800">{m.acc_tab_delete()}</h1>
      <div className="mt-4 rounded-2xl border border-red-200 bg-white p-5 shadow-sm">
        <p>{m.acc_delete_text()}</p>
        <Button variant="danger" className="mt-4" onClick={() => setConfirming(true)}>
          {m.acc_delete_button()}
        </Button>
      </div>
      <Dialog
        open={confirming}
        onClose={() => !busy && close()}
        title={m.acc_delete_title()}
        description={m.acc_delete_confirm_text({ name })}
      >
        <Form className="mt-4" onSubmit={remove}>
          <PasswordField
            label={m.acc_delete_password()}
            autoComplete="current-password"
            value={password}
            error={wrong}
            onChange={(e) => {
              setPassword(e.target.value);
              setWrong(undefined);
            }}
            required
          />
          <div className="mt-5 flex justify-end gap-2">
            <Button variant="secondary" type="button" onClick={close} disabled={busy}>
              {m.action_cancel()}
            </Button>
            <Button variant="danger" type="submit" disabled={busy}>
              {busy ? m.acc_delete_busy() : m.acc_delete_yes()}
            </Button>
          </div>
        </Form>
      </Dialog>
    </div>
  );
}

import { useState } from "react";
import { useNavigate } from "react-router-dom";
import { useConvex, useMutation } from "convex/react";
import { useAuthActions } from "@convex-dev/auth/react";
import { toast } from "sonner";
import { api } from "@convex/_generated/api";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { errorMessage } from "@/lib/errors";
import { paths } from "@/lib/paths";
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

export function DataExportTab() {
  const convex = useConvex();
  const [busy, setBusy] = useState(false);

  async function download() {
    setBusy(true);
    try {
      const data = await convex.query(api.users.exportMyData, {});
      const blob = new Blob([JSON.stringify(data, null, 2)], { type: "application/json" });
      const url = URL.createObjectURL(blob);
      const a = document.createElement("a");
      a.href = url;
      a.download = `gharsewa-my-data-${new Date().toISOString().slice(0, 10)}.json`;
      a.click();
      URL.revokeObjectURL(url);
      toast.success(m.acc_export_done());
    } catch (e) {
      toast.error(errorMessage(e, m.acc_export_failed()));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div>
      <h1 className="text-2xl font-bold">{m.acc_tab_export()}</h1>
      <div className="mt-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
        <p>{m.acc_export_text()}</p>
        <Button className="mt-4" onClick={download} disabled={busy}>
          {busy ? m.acc_export_busy() : m.acc_export_button()}
        </Button>
      </div>
    </div>
  );
}

export function DeleteAccountTab({ name }: { name: string }) {
  const deleteAccount = useMutation(api.users.deleteAccount);
  const { signOut } = useAuthActions();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);

  async function remove() {
    setBusy(true);
    try {
      await deleteAccount();
      await signOut().catch(() => undefined); // the session is already gone with the account
      toast.success(m.acc_delete_done({ name }));
      navigate(paths.home());
    } catch (e) {
      toast.error(errorMessage(e, m.acc_delete_failed()));
      setBusy(false);
      setConfirming(false);
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
        onClose={() => !busy && setConfirming(false)}
        title={m.acc_delete_title()}
        description={m.acc_delete_confirm_text({ name })}
      >
        <div className="mt-5 flex justify-end gap-2">
          <Button variant="secondary" onClick={() => setConfirming(false)} disabled={busy}>
            {m.action_cancel()}
          </Button>
          <Button variant="danger" onClick={remove} disabled={busy}>
            {busy ? m.acc_delete_busy() : m.acc_delete_yes()}
          </Button>
        </div>
      </Dialog>
    </div>
  );
}

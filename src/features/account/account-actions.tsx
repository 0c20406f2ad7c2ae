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

export function BillingTab() {
  return (
    <div>
      <h1 className="text-2xl font-bold">Billing</h1>
      <div className="mt-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
        <p>
          You pay the professional in cash when the job is completed. The price you confirmed when
          booking is the price you pay.
        </p>
        <p className="mt-2 text-sm text-slate-600">Paying with eSewa or Khalti is coming later.</p>
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
      toast.success("Your data has been downloaded.");
    } catch (e) {
      toast.error(errorMessage(e, "Your data could not be exported. Please try again."));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div>
      <h1 className="text-2xl font-bold">Data Export</h1>
      <div className="mt-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
        <p>
          Download everything GharSewa stores about you — profile, bookings, reviews and
          notifications — as a JSON file.
        </p>
        <Button className="mt-4" onClick={download} disabled={busy}>
          {busy ? "Preparing…" : "Download my data"}
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
      toast.success(`${name}, your account has been deleted.`);
      navigate(paths.home());
    } catch (e) {
      toast.error(errorMessage(e, "Your account could not be deleted. Please try again."));
      setBusy(false);
      setConfirming(false);
    }
  }

  return (
    <div>
      <h1 className="text-2xl font-bold text-red-800">Delete Account</h1>
      <div className="mt-4 rounded-2xl border border-red-200 bg-white p-5 shadow-sm">
        <p>
          Deleting your account removes your profile, photo and notifications for good and signs you
          out. Open booking requests are cancelled. Bookings under way must be finished first.
        </p>
        <Button variant="danger" className="mt-4" onClick={() => setConfirming(true)}>
          Delete my account
        </Button>
      </div>
      <Dialog
        open={confirming}
        onClose={() => !busy && setConfirming(false)}
        title="Delete your account?"
        description={`This cannot be undone, ${name}. Do you want to continue?`}
      >
        <div className="mt-5 flex justify-end gap-2">
          <Button variant="secondary" onClick={() => setConfirming(false)} disabled={busy}>
            Cancel
          </Button>
          <Button variant="danger" onClick={remove} disabled={busy}>
            {busy ? "Deleting…" : "Yes, delete my account"}
          </Button>
        </div>
      </Dialog>
    </div>
  );
}

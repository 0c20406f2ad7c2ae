import { useNavigate } from "react-router-dom";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { paths } from "@/lib/paths";
import { useLogout } from "@/lib/use-logout";
import { m } from "@/i18n/paraglide/messages";

/** Confirms the sign-out with the spec's texts, then goes home. */
export default function LogoutDialog({
  open,
  name,
  onClose,
}: {
  open: boolean;
  name: string;
  onClose: () => void;
}) {
  const navigate = useNavigate();
  const { logout, busy } = useLogout(name, () => {
    onClose();
    return navigate(paths.home());
  });

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={m.logout_title()}
      description={m.logout_text({ name })}
    >
      <div className="mt-5 flex justify-end gap-2">
        <Button variant="secondary" onClick={onClose} disabled={busy}>
          {m.action_cancel()}
        </Button>
        <Button onClick={logout} disabled={busy}>
          {m.action_continue()}
        </Button>
      </div>
    </Dialog>
  );
}

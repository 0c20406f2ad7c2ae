import { useNavigate } from "react-router-dom";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { paths } from "@/lib/paths";
import { useLogout } from "@/lib/use-logout";

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
    navigate(paths.home());
  });

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Are you sure?"
      description={`Are you sure to log out, ${name}. Do you want to continue?`}
    >
      <div className="mt-5 flex justify-end gap-2">
        <Button variant="secondary" onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button onClick={logout} disabled={busy}>
          Continue
        </Button>
      </div>
    </Dialog>
  );
}

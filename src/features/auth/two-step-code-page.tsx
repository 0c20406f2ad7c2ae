import { useState } from "react";
import { useSearchParams } from "react-router-dom";
import { Link } from "@/components/link";
import { partAfterPaint } from "@/components/ui/part-placeholder";
import { AuthCard } from "@/features/auth/auth-card";
import type { Role, TwoStepCodeProps } from "@/features/auth/two-step-code-steps";
import { paths } from "@/lib/paths";

// as tall as the first step (its hint takes a line more below 400 px)
const Steps = partAfterPaint(
  () => import("@/features/auth/two-step-code-steps"),
  "min-h-[15.5rem] min-[400px]:min-h-[14.5rem]",
);

/**
 * A page in two steps: an address (mobile number or email) and the role, then the code sent there,
 * typed back (with a new password where the page asks for one); "send a new code" goes back.
 */
export function TwoStepCodePage(props: TwoStepCodeProps) {
  const [params] = useSearchParams();
  const [role, setRole] = useState<Role>(
    params.get("role") === "professional" ? "professional" : "customer",
  );
  const [sentTo, setSentTo] = useState<string | null>(null);
  return (
    <AuthCard title={props.title} subtitle={props.subtitle}>
      <Steps
        {...props}
        role={role}
        onRole={setRole}
        sentTo={sentTo}
        onSent={setSentTo}
        onAgain={() => setSentTo(null)}
      />
      <p className="mt-6 text-center text-sm text-slate-600">
        <Link
          to={role === "professional" ? paths.professionalSignin() : paths.login()}
          className="font-medium text-brand-700 underline"
        >
          {props.backLabel}
        </Link>
      </p>
    </AuthCard>
  );
}

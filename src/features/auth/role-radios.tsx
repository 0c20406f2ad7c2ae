import type { SignupRole } from "@/features/auth/signup-schema";
import { m } from "@/i18n/paraglide/messages";

/** The Customer / Professional radio pair of the sign-up and login forms. */
export function RoleRadios({
  value,
  onChange,
}: {
  value: SignupRole;
  onChange: (role: "customer" | "professional") => void;
}) {
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-800">{m.role_legend()}</legend>
      <div className="mt-1 grid grid-cols-2 gap-2">
        {(["customer", "professional"] as const).map((role) => (
          <label
            key={role}
            className="flex min-h-11 cursor-pointer items-center gap-2 rounded-lg border border-slate-300 bg-white px-3 py-2 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600"
          >
            <input
              type="radio"
              name="role"
              value={role}
              checked={value === role}
              onChange={() => onChange(role)}
              className="accent-brand-600"
            />
            {role === "customer" ? m.role_customer() : m.role_professional()}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

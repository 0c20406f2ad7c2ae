import { useState } from "react";
import { useNavigate, useSearchParams } from "react-router-dom";
import { Link } from "@/components/link";
import { useAuthActions } from "@convex-dev/auth/react";
import { useMutation } from "convex/react";
import { toast } from "sonner";
import { api } from "@convex/_generated/api";
import { CITIES, SPECIALTIES } from "@convex/constants";
import { DOCUMENT_KINDS, type DocumentKind } from "@convex/rules/documents";
import { m } from "@/i18n/paraglide/messages";
import { localCityName } from "@/i18n/places";
import { localDocumentLabel } from "@/i18n/rules";
import { localLandingService } from "@/i18n/categories";
import { formatDigits, formatNumber } from "@/lib/numbers";
import { ProgressBar } from "@/components/ui/progress-bar";
import { AuthForm } from "@/features/auth/auth-form";
import { RoleRadios } from "@/features/auth/role-radios";
import { useSignUpDraft } from "@/features/auth/sign-up-draft";
import {
  emptySignup,
  signupSchema,
  type SignupRole,
  type SignupValues,
} from "@/features/auth/signup-schema";
import { errorMessage } from "@/lib/errors";
import { useAppForm } from "@/components/form";
import { holdGuestRedirect } from "@/lib/guest-redirect";
import { paths } from "@/lib/paths";
import { RETURN_PARAM, safeReturnTo } from "@/lib/booking-intent";
import { imageHint, uploadImage } from "@/lib/upload";
import { useWaitForAuthenticated } from "@/lib/use-wait-for-auth";

type FileKey = "photo" | DocumentKind;

/** The one sign-up form behind /signup, /user-signup and /professional/signup (spec §2, §5, §8). */
export function SignupForm({ initialRole }: { initialRole: SignupRole }) {
  const { signIn } = useAuthActions();
  const waitForAuthenticated = useWaitForAuthenticated();
  const generateUploadUrl = useMutation(api.files.generateUploadUrl);
  const navigate = useNavigate();
  // where the visitor was before sign-up (a booking, lib/booking-intent.ts): a customer goes back there
  const returnTo = safeReturnTo(useSearchParams()[0].get(RETURN_PARAM)) ?? undefined;
  const [progress, setProgress] = useState<Partial<Record<FileKey, number>>>({});
  // the account exists: on a slow phone the next page may take a moment to load, so no second submit
  const [created, setCreated] = useState(false);

  const draft = useSignUpDraft();

  async function upload(key: FileKey, file: File, draftToken: string): Promise<string> {
    const url = await generateUploadUrl({ draft: draftToken });
    return uploadImage(url, file, (fraction) => setProgress((p) => ({ ...p, [key]: fraction })));
  }

  async function register(value: SignupValues) {
    const role = value.role as "customer" | "professional";
    const keys: FileKey[] =
      role === "professional" ? ["photo", ...DOCUMENT_KINDS.map((d) => d.key)] : ["photo"];
    const toUpload = keys.filter((k) => value[k]);
    setProgress(Object.fromEntries(toUpload.map((k) => [k, 0])));
    try {
      // One at a time: on slow mobile data each file finishes sooner than four sharing the link.
      const draftToken = await draft.token();
      const ids: Partial<Record<FileKey, string>> = {};
      for (const k of toUpload) ids[k] = await upload(k, value[k]!, draftToken);
      const params: Record<string, string> = {
        flow: "signUp",
        draft: draftToken,
        email: value.email.trim(),
        password: value.password,
        name: value.name.trim(),
        phone: value.phone.trim(),
        address: value.address.trim(),
        zipCode: value.zipCode.trim(),
        ...ids,
        ...(role === "professional"
          ? { specialty: value.specialty, city: value.city, state: value.state.trim() }
          : {}),
      };
      // Signed in at once; the guest-only guard holds until the new account's home is chosen.
      await holdGuestRedirect(async () => {
        await signIn(role, params);
        await waitForAuthenticated();
        setCreated(true);
        toast.success(m.signup_success());
        navigate(
          role === "professional" ? paths.roleHome(role) : (returnTo ?? paths.roleHome(role)),
        );
      });
    } catch (e) {
      draft.refused(e);
      toast.error(errorMessage(e, m.signup_failed()));
    } finally {
      setProgress({});
    }
  }

  const form = useAppForm({
    defaultValues: emptySignup(initialRole),
    validators: { onChange: signupSchema, onSubmit: signupSchema },
    onSubmit: ({ value }) => register(value),
  });

  return (
    <AuthForm form={form} missingRole={m.signup_missing_role()}>
      <form.AppField name="name">
        {(f) => <f.TextField label={m.field_full_name()} autoComplete="name" />}
      </form.AppField>
      <form.AppField name="email">
        {(f) => <f.TextField label={m.label_email()} type="email" autoComplete="email" />}
      </form.AppField>
      <form.AppField name="phone">
        {(f) => (
          <f.TextField
            label={m.field_phone()}
            type="tel"
            autoComplete="tel"
            placeholder={formatDigits("98XXXXXXXX")}
          />
        )}
      </form.AppField>
      <form.AppField name="password">
        {(f) => <f.NewPasswordField label={m.label_password()} />}
      </form.AppField>
      <div className="grid gap-4 sm:grid-cols-[2fr_1fr]">
        <form.AppField name="address">
          {(f) => <f.TextField label={m.label_address()} autoComplete="street-address" />}
        </form.AppField>
        <form.AppField name="zipCode">
          {(f) => (
            <f.TextField
              label={m.label_zip_code()}
              autoComplete="postal-code"
              inputMode="numeric"
            />
          )}
        </form.AppField>
      </div>
      <form.Field name="role">
        {(f) => <RoleRadios value={f.state.value} onChange={(r) => f.handleChange(r)} />}
      </form.Field>
      <form.AppField name="photo">
        {(f) => (
          <f.ImageField
            label={m.field_photo_optional()}
            hint={fileHint(f.state.value)}
            className={FILE_BUTTON}
          />
        )}
      </form.AppField>

      <form.Subscribe selector={(s) => s.values.role}>
        {(role) => (
          // Always mounted (hidden for customers): fields that mount late miss the submit-time errors.
          <fieldset
            hidden={role !== "professional"}
            className="space-y-4 rounded-xl border border-slate-200 p-4"
          >
            <legend className="px-1 text-sm font-semibold text-slate-800">
              {m.professional_details()}
            </legend>
            <div className="grid gap-4 sm:grid-cols-2">
              <form.AppField name="city">
                {(f) => (
                  <f.SelectField label={m.label_city()}>
                    <option value="">{m.field_select_city()}</option>
                    {CITIES.map((c) => (
                      <option key={c.slug} value={c.slug}>
                        {localCityName(c.slug)}
                      </option>
                    ))}
                  </f.SelectField>
                )}
              </form.AppField>
              <form.AppField name="state">
                {(f) => (
                  <f.TextField label={m.label_state()} placeholder={m.field_state_placeholder()} />
                )}
              </form.AppField>
            </div>
            <form.AppField name="specialty">
              {(f) => (
                <f.SelectField label={m.label_specialty()}>
                  <option value="">{m.field_select_specialty()}</option>
                  {SPECIALTIES.map((s) => (
                    <option key={s.slug} value={s.slug}>
                      {localLandingService(s.name)}
                    </option>
                  ))}
                </f.SelectField>
              )}
            </form.AppField>
            {DOCUMENT_KINDS.map((d) => (
              <form.AppField key={d.key} name={d.key}>
                {(f) => (
                  <f.ImageField
                    label={localDocumentLabel(d.key)}
                    hint={fileHint(f.state.value)}
                    className={FILE_BUTTON}
                  />
                )}
              </form.AppField>
            ))}
          </fieldset>
        )}
      </form.Subscribe>

      {Object.keys(progress).length > 0 && (
        <div className="space-y-2 rounded-xl bg-slate-50 p-3" aria-live="polite">
          {(Object.entries(progress) as [FileKey, number][]).map(([k, v]) => (
            <ProgressBar key={k} label={m.uploading({ what: localDocumentLabel(k) })} value={v} />
          ))}
        </div>
      )}

      <form.AppForm>
        <form.SubmitButton
          label={m.signup_button()}
          pendingLabel={m.please_wait()}
          disabled={created}
          className="w-full"
        />
      </form.AppForm>
      <p className="text-center text-sm text-slate-600">
        {m.signup_have_account()}{" "}
        <Link to={paths.login(returnTo)} className="font-medium text-brand-700 underline">
          {m.signup_login_link()}
        </Link>
      </p>
    </AuthForm>
  );
}

const FILE_BUTTON =
  "file:mr-3 file:rounded-md file:border-0 file:bg-brand-50 file:px-3 file:py-1 file:text-brand-800";

/** The chosen file's name and size, or what may be chosen. */
function fileHint(file: File | null): string {
  if (!file) return imageHint();
  const size =
    file.size < 1024 * 1024
      ? `${formatNumber(Math.ceil(file.size / 1024))} KB`
      : `${formatNumber(Number((file.size / 1024 / 1024).toFixed(1)))} MB`;
  return `${file.name} · ${size}`;
}

import {
  useId,
  useState,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from "react";
import { m } from "@/i18n/paraglide/messages";

const control =
  "mt-1 block min-h-11 w-full rounded-lg border bg-white px-3 py-2 text-slate-900 shadow-sm focus:outline-2 focus:outline-offset-1 focus:outline-brand-600 disabled:bg-slate-100";

function controlClass(error?: string) {
  return `${control} ${error ? "border-red-500" : "border-slate-300"}`;
}

type FieldShellProps = {
  id: string;
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
  children: ReactNode;
  className?: string;
};

function FieldShell({ id, label, error, hint, children, className = "" }: FieldShellProps) {
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      {children}
      {hint && !error && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-600">
          {error}
        </p>
      )}
    </div>
  );
}

function describedBy(id: string, error?: string, hint?: ReactNode) {
  return error ? `${id}-error` : hint ? `${id}-hint` : undefined;
}

type Common = { label: ReactNode; error?: string; hint?: ReactNode; wrapperClassName?: string };

/**
 * Splits a field's props into its FieldShell's (label, hint, error) and its control's: the id (given
 * or generated), ARIA state and classes, then every other prop as given.
 */
function useFieldParts<P extends Common & { id?: string; className?: string }>(props: P) {
  const { label, error, hint, wrapperClassName, id, className = "", ...rest } = props;
  const autoId = useId();
  const fieldId = id ?? autoId;
  return {
    shell: { id: fieldId, label, error, hint, className: wrapperClassName },
    control: {
      id: fieldId,
      "aria-invalid": error ? true : undefined,
      "aria-describedby": describedBy(fieldId, error, hint),
      className: `${controlClass(error)} ${className}`,
      ...rest,
    },
  };
}

export function TextField(props: Common & InputHTMLAttributes<HTMLInputElement>) {
  const { shell, control } = useFieldParts(props);
  return (
    <FieldShell {...shell}>
      <input {...control} />
    </FieldShell>
  );
}

/**
 * A file picker whose button and "no file" words are the app's, in the reader's language: the
 * browser's own ("Choose File / No file chosen") follow its interface language and are clipped at
 * 360 px. The native input stays, visually hidden, for the label, keyboard and assistive tech.
 */
export function FileField({
  fileName,
  ...props
}: Common & InputHTMLAttributes<HTMLInputElement> & { fileName?: string | null }) {
  const { shell, control } = useFieldParts(props);
  return (
    <FieldShell {...shell}>
      <div className="relative mt-1">
        <input {...control} type="file" className="peer sr-only" />
        <label
          htmlFor={control.id}
          aria-hidden="true"
          className={`flex cursor-pointer items-center gap-3 rounded-lg border bg-white px-2 py-2 peer-focus-visible:outline-2 peer-focus-visible:outline-brand-600 ${
            props.error ? "border-red-500" : "border-slate-300"
          }`}
        >
          <span className="shrink-0 rounded-md bg-brand-50 px-3 py-1.5 text-sm font-medium text-brand-800">
            {m.file_choose()}
          </span>
          <span className="min-w-0 truncate text-sm text-slate-600">
            {fileName || m.file_none()}
          </span>
        </label>
      </div>
    </FieldShell>
  );
}

export function SelectField({
  children,
  ...props
}: Common & SelectHTMLAttributes<HTMLSelectElement>) {
  const { shell, control } = useFieldParts(props);
  return (
    <FieldShell {...shell}>
      <select {...control}>{children}</select>
    </FieldShell>
  );
}

export function TextareaField(props: Common & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const { shell, control } = useFieldParts(props);
  return (
    <FieldShell {...shell}>
      <textarea {...control} />
    </FieldShell>
  );
}

/** A password input with a show/hide toggle button (hidden at first). */
export function PasswordField(props: Common & InputHTMLAttributes<HTMLInputElement>) {
  const [shown, setShown] = useState(false);
  return (
    <div className="relative">
      <TextField type={shown ? "text" : "password"} className="pr-20" {...props} />
      <button
        type="button"
        onClick={() => setShown((s) => !s)}
        aria-pressed={shown}
        // as tall as the input beside it (label 20 px + mt-1), a thumb-sized target
        className="absolute top-6 right-0 inline-flex h-11 min-w-11 items-center justify-center rounded-r-lg px-3 text-sm text-brand-700 hover:bg-brand-50"
      >
        {shown ? m.password_hide() : m.password_show()}
      </button>
    </div>
  );
}

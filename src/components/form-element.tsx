import type { FormHTMLAttributes } from "react";

/**
 * A form the app validates itself (inline errors, no browser bubbles): submitting calls `onSubmit`
 * instead of loading a page. Its own module: pages with a plain form (the landing's search) load
 * no form library.
 */
export function Form({
  onSubmit,
  ...props
}: Omit<FormHTMLAttributes<HTMLFormElement>, "onSubmit"> & { onSubmit: () => unknown }) {
  return (
    <form
      noValidate
      {...props}
      onSubmit={(e) => {
        e.preventDefault();
        void onSubmit();
      }}
    />
  );
}

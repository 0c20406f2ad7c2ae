let raise = () => {};

/** Settles on the visit's first toast (src/lib/lazy-toast.ts): the Toaster then loads at once. */
export const firstToast = new Promise<void>((resolve) => (raise = resolve));

export function toastRaised() {
  raise();
}

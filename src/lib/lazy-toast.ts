/**
 * sonner's `toast` without sonner on the page's critical path: vite.config.ts (scripts/vite-shim-import.ts)
 * resolves the app's `import { toast } from "sonner"` to this module, which fetches sonner on the first
 * toast. sonner is 8.5 KB brotli and injects its stylesheet when evaluated; /login and the search page
 * waited for it before their first paint. Calls made before it has loaded run in order once it has;
 * they return nothing (sonner's toast ids are not available synchronously). The Toaster itself loads
 * after the first page has settled or on the first toast (src/app/layouts/root-layout.tsx), and shows
 * toasts raised before it mounted.
 */
import { importWhenOnline } from "@/lib/import-when-online";
import { toastRaised } from "@/lib/first-toast";

type Sonner = typeof import("sonner");

let sonner: Promise<Sonner> | undefined;
const load = () => (sonner ??= importWhenOnline(() => import("sonner")));

const forward =
  (method?: PropertyKey) =>
  (...args: unknown[]): void => {
    toastRaised();
    void load().then(({ toast }) =>
      Reflect.apply(method === undefined ? toast : Reflect.get(toast, method), toast, args),
    );
  };

type Later<F> = F extends (...args: infer A) => unknown ? (...args: A) => void : never;
type Toast = Sonner["toast"];
type LazyToast = Later<Toast> & { [K in keyof Toast]: Later<Toast[K]> };

/** `toast(…)`, `toast.success(…)`, `toast.error(…)`, … as sonner's, run once sonner has loaded. */
export const toast = new Proxy(forward(), {
  get: (_target, method) => forward(method),
}) as LazyToast;

import { Suspense, useEffect, useState, type ComponentType } from "react";
import { Outlet, useLocation } from "react-router-dom";
import { Header } from "@/app/layouts/header";
import { LanguageOffer } from "@/app/layouts/language-offer";
import { LoadingState } from "@/components/ui/states";
import { afterLoad } from "@/lib/after-load";
import { isAdminPath } from "@/lib/paths";
import { importWhenOnline } from "@/lib/import-when-online";
import { firstToast } from "@/lib/first-toast";

/**
 * Toasts follow what people do, never the first paint, so sonner's Toaster is fetched once the first
 * page has settled (src/lib/after-load.ts), or at the first toast if that comes sooner. It sits in the
 * page's Suspense boundary, whose effects run once the page commits (fetched any earlier, sonner
 * competed with the landing's fonts and paint: Lighthouse's LCP on / rose ~250 ms). sonner shows any
 * toast raised before its Toaster mounted.
 */
function ToasterAfterFirstPage() {
  const [Toaster, setToaster] = useState<ComponentType | null>(null);
  useEffect(() => {
    let active = true;
    const mount = () =>
      void importWhenOnline(() => import("@/app/toaster")).then(
        (m) => active && setToaster(() => m.default),
      );
    const cancel = afterLoad(mount);
    void firstToast.then(() => active && (cancel(), mount()));
    return () => {
      active = false;
      cancel();
    };
  }, []);
  return Toaster && <Toaster />;
}

export function RootLayout() {
  const { pathname } = useLocation();
  return (
    <div className="flex min-h-dvh flex-col">
      {!isAdminPath(pathname) && (
        <>
          <LanguageOffer />
          <Header />
        </>
      )}
      <div className="flex flex-1 flex-col">
        <Suspense fallback={<LoadingState />}>
          <Outlet />
          <ToasterAfterFirstPage />
        </Suspense>
      </div>
    </div>
  );
}

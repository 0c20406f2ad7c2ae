import { Suspense, useEffect, useState, type ComponentType } from "react";
import { Outlet, useLocation } from "react-router-dom";
import { Header } from "@/app/layouts/header";
import { LanguageOffer } from "@/app/layouts/language-offer";
import { LoadingState } from "@/components/ui/states";
import { afterLoad } from "@/lib/after-load";
import { isAdminPath } from "@/lib/paths";
import { importWhenOnline } from "@/lib/import-when-online";

/**
 * Toasts follow what people do, never the first paint, so sonner is fetched only after the first page has
 * loaded: this sits in the page's Suspense boundary, whose effects run once the page commits, then waits for
 * the window's load event and an idle moment (fetched any earlier, sonner competed with the landing's fonts
 * and paint: Lighthouse's LCP on / rose ~250 ms). sonner shows any toast raised before its Toaster mounted.
 */
function ToasterAfterFirstPage() {
  const [Toaster, setToaster] = useState<ComponentType | null>(null);
  useEffect(
    () =>
      afterLoad(
        () =>
          void importWhenOnline(() => import("@/app/toaster")).then((m) =>
            setToaster(() => m.default),
          ),
      ),
    [],
  );
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

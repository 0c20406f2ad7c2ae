import { Suspense, useEffect, useState, type ComponentType } from "react";
import { Outlet, useLocation } from "react-router-dom";
import { Header } from "@/app/layouts/header";
import { LoadingState } from "@/components/ui/states";
import { isAdminPath } from "@/lib/paths";

/**
 * Toasts follow what people do, never the first paint, so sonner is fetched only once the first page is on
 * screen: this sits in the page's Suspense boundary, whose effects run once the page commits. sonner shows
 * any toast raised before its Toaster mounted.
 */
function ToasterAfterFirstPage() {
  const [Toaster, setToaster] = useState<ComponentType | null>(null);
  useEffect(() => {
    void import("@/app/toaster").then((m) => setToaster(() => m.default));
  }, []);
  return Toaster && <Toaster />;
}

export function RootLayout() {
  const { pathname } = useLocation();
  return (
    <div className="flex min-h-dvh flex-col">
      {!isAdminPath(pathname) && <Header />}
      <div className="flex flex-1 flex-col">
        <Suspense fallback={<LoadingState />}>
          <Outlet />
          <ToasterAfterFirstPage />
        </Suspense>
      </div>
    </div>
  );
}

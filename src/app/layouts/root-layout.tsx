import { Suspense } from "react";
import { Outlet, useLocation } from "react-router-dom";
import { Header } from "@/app/layouts/header";
import { LoadingState } from "@/components/ui/states";
import { isAdminPath } from "@/lib/paths";

export function RootLayout() {
  const { pathname } = useLocation();
  return (
    <div className="flex min-h-dvh flex-col">
      {!isAdminPath(pathname) && <Header />}
      <div className="flex flex-1 flex-col">
        <Suspense fallback={<LoadingState />}>
          <Outlet />
        </Suspense>
      </div>
    </div>
  );
}

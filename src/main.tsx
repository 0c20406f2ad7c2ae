import "@/i18n/locale";
import { StrictMode, startTransition } from "react";
import { createRoot } from "react-dom/client";
import { Providers } from "@/app/providers";
import { loadRoutes } from "@/app/router";
import "./index.css";

// The first page's modules (index.html preloads them) load before the first render, so that the first
// paint is the page itself rather than a loading state followed by a second render of everything
// (Lighthouse at 4× CPU: the landing's largest paint came a 250 ms render after its first paint). A
// module that failed to load fails again when rendered, and RouteErrorBoundary shows it. The first
// render is a transition, so React renders it in slices that yield to the browser rather than in one
// long task (Lighthouse's total blocking time of /login at 4× CPU: median 256 → 74 ms).
void loadRoutes(window.location.pathname)
  .catch(() => undefined)
  .then(() => {
    const root = createRoot(document.getElementById("root")!);
    startTransition(() =>
      root.render(
        <StrictMode>
          <Providers />
        </StrictMode>,
      ),
    );
  });

import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { lazy, Suspense } from "react";
import { MemoryRouter, Route, Routes, useLocation } from "react-router-dom";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { RouteErrorBoundary } from "@/app/route-error";

function Boom(): never {
  throw new Error("boom");
}
const Unloadable = lazy(() =>
  Promise.reject(new Error("Failed to fetch dynamically imported module")),
);

function App() {
  const location = useLocation();
  return (
    <RouteErrorBoundary location={location.key}>
      <Suspense fallback={<p>Loading…</p>}>
        <Routes>
          <Route path="/" element={<p>Home page</p>} />
          <Route path="/broken" element={<Boom />} />
          <Route path="/unloadable" element={<Unloadable />} />
        </Routes>
      </Suspense>
    </RouteErrorBoundary>
  );
}

function renderAt(path: string) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <App />
    </MemoryRouter>,
  );
}

beforeEach(() => {
  // React reports every caught render error on the console.
  vi.spyOn(console, "error").mockImplementation(() => {});
});

describe("RouteErrorBoundary", () => {
  it("shows the spec's heading with the thrown error's message, and 'Back to home' recovers", async () => {
    renderAt("/broken");
    expect(screen.getByRole("heading", { name: "Unexpected Application Error!" })).toBeVisible();
    expect(screen.getByText("boom")).toBeVisible();

    await userEvent.click(screen.getByRole("link", { name: "Back to home" }));
    expect(await screen.findByText("Home page")).toBeVisible();
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("shows a route module that fails to load", async () => {
    renderAt("/unloadable");
    expect(await screen.findByText("Failed to fetch dynamically imported module")).toBeVisible();
  });
});

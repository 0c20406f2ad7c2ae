import { render, screen } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { describe, expect, it, vi } from "vitest";
import { RouteError } from "@/app/route-error";

function renderAt(loader: () => unknown) {
  const router = createMemoryRouter([{ path: "/", loader, element: <p>ok</p>, errorElement: <RouteError /> }]);
  render(<RouterProvider router={router} />);
}

describe("RouteError", () => {
  it("shows the spec's heading with the thrown error's message", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    renderAt(() => {
      throw new Error("boom");
    });
    expect(await screen.findByRole("heading", { name: "Unexpected Application Error!" })).toBeVisible();
    expect(screen.getByText("boom")).toBeVisible();
  });

  it("shows status and status text for a thrown response", async () => {
    renderAt(() => {
      throw new Response(null, { status: 404, statusText: "Not Found" });
    });
    expect(await screen.findByText("404 Not Found")).toBeVisible();
  });
});

import { cleanup, render, screen } from "@testing-library/react";
import { MemoryRouter, Route, Routes } from "react-router-dom";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CustomerOnly, GuestOnly } from "@/app/guards";

let auth = { isLoading: false, isAuthenticated: false };
let viewer: { role: string } | null | undefined = null;
vi.mock("convex/react", () => ({
  useConvexAuth: () => auth,
  useQuery: (_ref: unknown, args: unknown) => (args === "skip" ? undefined : viewer),
}));

function renderAt(path: string) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/" element={<p>home</p>} />
        <Route path="/professional-dashboard" element={<p>dashboard</p>} />
        <Route element={<GuestOnly />}>
          <Route path="/login" element={<p>login form</p>} />
        </Route>
        <Route element={<CustomerOnly />}>
          <Route path="/customer/profile" element={<p>profile</p>} />
        </Route>
      </Routes>
    </MemoryRouter>,
  );
}

afterEach(cleanup);

describe("route guards", () => {
  it("sends a signed-in user from /login to /", () => {
    auth = { isLoading: false, isAuthenticated: true };
    viewer = { role: "customer" };
    renderAt("/login");
    expect(screen.getByText("home")).toBeInTheDocument();
  });

  it("sends a signed-in professional from /login to their dashboard", () => {
    auth = { isLoading: false, isAuthenticated: true };
    viewer = { role: "professional" };
    renderAt("/login?returnTo=%2Fservices");
    expect(screen.getByText("dashboard")).toBeInTheDocument();
  });

  it("lets visitors reach /login but not customer pages", () => {
    auth = { isLoading: false, isAuthenticated: false };
    viewer = null;
    renderAt("/login");
    expect(screen.getByText("login form")).toBeInTheDocument();
    cleanup();
    renderAt("/customer/profile");
    expect(screen.getByText("login form")).toBeInTheDocument();
  });

  it("keeps customer pages for customers and sends other roles home", () => {
    auth = { isLoading: false, isAuthenticated: true };
    viewer = { role: "customer" };
    renderAt("/customer/profile");
    expect(screen.getByText("profile")).toBeInTheDocument();
    cleanup();
    viewer = { role: "professional" };
    renderAt("/customer/profile");
    expect(screen.getByText("home")).toBeInTheDocument();
  });

  it("waits while the session is being restored", () => {
    auth = { isLoading: true, isAuthenticated: false };
    renderAt("/customer/profile");
    expect(screen.getByRole("status")).toHaveTextContent("Loading");
  });
});

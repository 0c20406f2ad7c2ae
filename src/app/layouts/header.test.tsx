import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter, useLocation } from "react-router-dom";
import { getFunctionName, type FunctionReference } from "convex/server";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Header } from "@/app/layouts/header";

const signOut = vi.fn();
let viewer: { name: string; role: string; photoUrl: null } | null = null;
let connected = true;
let authLoading = false;
let keptToken: string | null = null;
let searchResults:
  | { category: string; categoryName: string; serviceName: string | null; city: string | null }[]
  | undefined;

vi.mock("@convex-dev/auth/react", () => ({
  useAuthActions: () => ({ signIn: vi.fn(), signOut }),
  useAuthToken: () => keptToken,
}));
vi.mock("convex/react", () => ({
  useMutation: () => vi.fn(),
  useConvexAuth: () => ({ isLoading: authLoading, isAuthenticated: viewer !== null }),
  useConvexConnectionState: () => ({ isWebSocketConnected: connected, hasEverConnected: true }),
  useQuery: (ref: FunctionReference<"query">, args: unknown) => {
    if (args === "skip") return undefined;
    const name = getFunctionName(ref);
    if (name === "users:viewer") return viewer;
    if (name === "notifications:unreadCount") return 3;
    if (name === "catalog:search") return searchResults;
    return undefined;
  },
}));
vi.mock("sonner", () => ({ toast: { error: vi.fn(), success: vi.fn() } }));
const { toast } = await import("sonner");

function Where() {
  const { pathname, search } = useLocation();
  return <p data-testid="location">{pathname + search}</p>;
}

function renderHeader() {
  render(
    <MemoryRouter>
      <Header />
      <Where />
    </MemoryRouter>,
  );
  return userEvent.setup();
}

beforeEach(() => {
  vi.clearAllMocks();
  viewer = null;
  connected = true;
  authLoading = false;
  keptToken = null;
  searchResults = undefined;
});
afterEach(cleanup);

describe("Header", () => {
  it("offers About us, Login and Signup to visitors", () => {
    renderHeader();
    expect(screen.getByRole("link", { name: "About us" })).toHaveAttribute("href", "/about");
    expect(screen.getByRole("link", { name: "Signup" })).toHaveAttribute("href", "/signup");
    expect(screen.getByRole("status")).toHaveAttribute("title", "Connected");
  });

  it("offers no Login while a session kept on this device waits for the server (offline)", () => {
    authLoading = true;
    keptToken = "kept.session.token";
    renderHeader();
    expect(screen.queryByRole("link", { name: "Login" })).not.toBeInTheDocument();
    expect(screen.queryByRole("link", { name: "Signup" })).not.toBeInTheDocument();
    cleanup();
    keptToken = null; // a visitor's first render: Login at once
    renderHeader();
    expect(screen.getAllByRole("link", { name: "Login" }).length).toBeGreaterThan(0);
  });

  it("shows the professional's menu and the unread count", async () => {
    viewer = { name: "Ram Thapa", role: "professional", photoUrl: null };
    const user = renderHeader();
    // the signed-in controls load on sign-in, outside the landing's initial JS
    expect(
      await screen.findByRole("link", { name: "Notifications, 3 unread" }),
    ).toBeInTheDocument();
    await user.click(await screen.findByRole("button", { name: "Account menu for Ram Thapa" }));
    expect(screen.getByRole("link", { name: "Dashboard" })).toHaveAttribute(
      "href",
      "/professional-dashboard",
    );
    // their account tools, as a customer has
    expect(screen.getByRole("link", { name: "My Profile" })).toHaveAttribute(
      "href",
      "/professional/account",
    );
    expect(screen.getByRole("link", { name: "Notifications" })).toBeInTheDocument();
  });

  it("reads 'Unknown role' for any other role", async () => {
    viewer = { name: "Admin", role: "admin", photoUrl: null };
    const user = renderHeader();
    await user.click(await screen.findByRole("button", { name: "Account menu for Admin" }));
    expect(screen.getByText("Unknown role")).toBeInTheDocument();
  });

  it("confirms logout with the spec's texts and toasts", async () => {
    viewer = { name: "Sita Sharma", role: "customer", photoUrl: null };
    signOut.mockResolvedValueOnce(undefined).mockRejectedValueOnce(new Error("offline"));
    const user = renderHeader();
    await user.click(await screen.findByRole("button", { name: "Account menu for Sita Sharma" }));
    expect(screen.getByRole("link", { name: "My Profile" })).toHaveAttribute(
      "href",
      "/customer/profile",
    );
    await user.click(screen.getByRole("button", { name: "Logout" }));
    expect(await screen.findByText("Are you sure?")).toBeInTheDocument();
    expect(
      screen.getByText("Are you sure to log out, Sita Sharma. Do you want to continue?"),
    ).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Continue" }));
    expect(toast.success).toHaveBeenCalledWith("Sita Sharma has been logged out successfully");

    await user.click(await screen.findByRole("button", { name: "Account menu for Sita Sharma" }));
    await user.click(screen.getByRole("button", { name: "Logout" }));
    await user.click(screen.getByRole("button", { name: "Continue" }));
    expect(toast.error).toHaveBeenCalledWith("Sign-out failed. Please try again.");
  });

  it("says when the connection is being re-established", () => {
    connected = false;
    renderHeader();
    expect(screen.getByRole("status")).toHaveAttribute("title", "Reconnecting…");
  });

  it("searches from the first keystroke; the results part arrives while typing", async () => {
    const user = renderHeader();
    const input = screen.getByRole("combobox", { name: "Search services" });
    await user.type(input, "bi");
    expect(input).toHaveValue("bi");
    expect(await screen.findByRole("listbox")).toHaveTextContent("Searching…");
    searchResults = [
      {
        category: "electrical",
        categoryName: "Electrical",
        serviceName: "House Wiring",
        city: null,
      },
    ];
    await user.type(input, "j");
    expect(await screen.findByRole("option", { name: /House Wiring/ })).toBeInTheDocument();
    await user.keyboard("{ArrowDown}{Enter}");
    expect(screen.getByTestId("location")).toHaveTextContent("/services/search?");
    expect(input).toHaveValue("");
  });

  it("opens the menu drawer on the first tap", async () => {
    const user = renderHeader();
    await user.click(screen.getByRole("button", { name: "Open menu" }));
    expect(await screen.findByRole("link", { name: "Contact us" })).toHaveAttribute(
      "href",
      "/contact",
    );
  });
});

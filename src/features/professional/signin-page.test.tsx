import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import ProfessionalSigninPage from "@/features/professional/signin-page";

const signIn = vi.fn();
vi.mock("@convex-dev/auth/react", () => ({ useAuthActions: () => ({ signIn, signOut: vi.fn() }) }));
vi.mock("convex/react", () => ({
  useConvexAuth: () => ({ isLoading: false, isAuthenticated: false }),
  useQuery: () => undefined,
}));

/** The heading and links paint at once; the form arrives after the first paint (partAfterPaint). */
async function renderPage() {
  const router = createMemoryRouter(
    [
      { path: "/professional-signin", element: <ProfessionalSigninPage /> },
      { path: "/professional-dashboard", element: <p>Dashboard</p> },
    ],
    { initialEntries: ["/professional-signin"] },
  );
  render(<RouterProvider router={router} />);
  await screen.findByLabelText("Email or mobile number");
  return router;
}

describe("ProfessionalSigninPage", () => {
  beforeEach(() => {
    signIn.mockReset();
  });
  afterEach(cleanup);

  it("has the spec's title, links and a plain-text email field; both fields are required", async () => {
    await renderPage();
    expect(screen.getByRole("heading", { name: "Login as a professional" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Register as a user?" })).toHaveAttribute(
      "href",
      "/user-signup",
    );
    expect(screen.getByRole("link", { name: "Create an account as professional" })).toHaveAttribute(
      "href",
      "/professional/signup",
    );
    expect(screen.getByLabelText("Email or mobile number")).toHaveAttribute("type", "text");
    await userEvent.setup().click(screen.getByRole("button", { name: "Sign in" }));
    expect(await screen.findByText("Email is required.")).toBeInTheDocument();
    expect(screen.getByText("Password is required.")).toBeInTheDocument();
    expect(signIn).not.toHaveBeenCalled();
  });

  it("reads 'Signing in...' while busy and shows the spec's error on failure", async () => {
    let fail!: (e: Error) => void;
    signIn.mockImplementation(() => new Promise((_, reject) => (fail = reject)));
    const router = await renderPage();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText("Email or mobile number"), "not-an-email");
    await user.type(screen.getByLabelText("Password"), "secret");
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    expect(await screen.findByRole("button", { name: "Signing in..." })).toBeDisabled();
    expect(signIn).toHaveBeenCalledWith("professional", {
      email: "not-an-email",
      password: "secret",
      flow: "signIn",
    });
    fail(new Error("InvalidAccountId"));
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "An error occurred. Please try again.",
    );
    expect(router.state.location.pathname).toBe("/professional-signin");
  });

  it("goes to the dashboard on success", async () => {
    signIn.mockResolvedValue({ signingIn: true });
    await renderPage();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText("Email or mobile number"), "professional@demo.np");
    await user.type(screen.getByLabelText("Password"), "demo-password-1");
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    expect(await screen.findByText("Dashboard")).toBeInTheDocument();
  });
});

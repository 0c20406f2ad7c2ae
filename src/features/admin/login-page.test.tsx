import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { ConvexError } from "convex/values";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import AdminLoginPage from "@/features/admin/login-page";

const signIn = vi.fn();
vi.mock("@convex-dev/auth/react", () => ({ useAuthActions: () => ({ signIn, signOut: vi.fn() }) }));

function renderPage() {
  const router = createMemoryRouter(
    [
      { path: "/admin-login", element: <AdminLoginPage /> },
      { path: "/admin-panel", element: <p>Admin panel</p> },
    ],
    { initialEntries: ["/admin-login"] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

async function fillAndSubmit(username: string, password: string) {
  const user = userEvent.setup();
  if (username) await user.type(screen.getByLabelText("Username"), username);
  if (password) await user.type(screen.getByLabelText("Password"), password);
  await user.click(screen.getByRole("button", { name: "Login" }));
}

describe("AdminLoginPage", () => {
  // Braces matter: a function returned from beforeEach is run as a teardown.
  beforeEach(() => {
    signIn.mockReset();
  });
  afterEach(cleanup);

  it("requires username and password before calling the server", async () => {
    renderPage();
    await fillAndSubmit("", "");
    expect(await screen.findByText("Username is required.")).toBeInTheDocument();
    expect(screen.getByText("Password is required.")).toBeInTheDocument();
    expect(signIn).not.toHaveBeenCalled();
  });

  it("shows the red failure message on any sign-in error and stays on the page", async () => {
    signIn.mockRejectedValue(new Error("InvalidSecret"));
    const router = renderPage();
    await fillAndSubmit("admin", "wrong");
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("Login failed. Please check your credentials and try again.");
    expect(alert.className).toMatch(/red/);
    expect(screen.queryByText("Login successful")).not.toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/admin-login");
  });

  it("signs in through the admin provider, shows the green success message, then opens the panel after 500 ms", async () => {
    signIn.mockResolvedValue({ signingIn: true });
    const router = renderPage();
    await fillAndSubmit(" admin ", "s3cret");
    expect(signIn).toHaveBeenCalledWith("admin", {
      username: "admin",
      password: "s3cret",
      flow: "signIn",
    });
    const status = await screen.findByText("Login successful");
    expect(status.className).toMatch(/green/);
    const shownAt = Date.now();
    expect(router.state.location.pathname).toBe("/admin-login");
    expect(await screen.findByText("Admin panel", {}, { timeout: 2000 })).toBeInTheDocument();
    expect(Date.now() - shownAt).toBeGreaterThanOrEqual(450);
  });

  it("asks for the authenticator code when the server wants it, and sends it with the password", async () => {
    signIn.mockRejectedValueOnce(
      new ConvexError({ code: "TWO_FACTOR_REQUIRED", message: "Enter the code" }),
    );
    signIn.mockRejectedValueOnce(
      new ConvexError({ code: "INVALID_CODE", message: "This code is wrong or was already used." }),
    );
    signIn.mockResolvedValueOnce({ signingIn: true });
    renderPage();
    await fillAndSubmit("admin", "s3cret");
    const user = userEvent.setup();
    const code = await screen.findByLabelText("Authenticator code");
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    await user.type(code, "111111");
    await user.click(screen.getByRole("button", { name: "Login" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "This code is wrong or was already used.",
    );
    await user.clear(code);
    await user.type(code, "123456");
    await user.click(screen.getByRole("button", { name: "Login" }));
    expect(signIn).toHaveBeenLastCalledWith("admin", {
      username: "admin",
      password: "s3cret",
      flow: "signIn",
      code: "123456",
    });
    expect(await screen.findByText("Login successful")).toBeInTheDocument();
  });
});

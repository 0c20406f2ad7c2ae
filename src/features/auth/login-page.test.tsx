import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter } from "react-router-dom";
import { ConvexError } from "convex/values";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import LoginPage from "@/features/auth/login-page";

const signIn = vi.fn();
const navigate = vi.fn();
vi.mock("@convex-dev/auth/react", () => ({ useAuthActions: () => ({ signIn, signOut: vi.fn() }) }));
vi.mock("sonner", () => ({ toast: { error: vi.fn(), success: vi.fn() } }));
vi.mock("react-router-dom", async (importOriginal) => ({
  ...(await importOriginal<typeof import("react-router-dom")>()),
  useNavigate: () => navigate,
}));
const { toast } = await import("sonner");

/** The page paints its heading at once; the form arrives after the first paint (lazyAfterPaint). */
async function renderLogin() {
  render(
    <MemoryRouter>
      <LoginPage />
    </MemoryRouter>,
  );
  expect(screen.getByRole("heading", { name: "Login" })).toBeTruthy();
  await screen.findByLabelText("Email or mobile number");
  return userEvent.setup();
}

beforeEach(() => vi.clearAllMocks());
afterEach(cleanup);

describe("LoginPage", () => {
  it("asks for a role with the spec's toast", async () => {
    const user = await renderLogin();
    await user.type(screen.getByLabelText("Email or mobile number"), "sita@example.np");
    await user.type(screen.getByLabelText("Password", { selector: "input" }), "long-enough");
    await user.click(screen.getByRole("button", { name: "Login" }));
    expect(toast.error).toHaveBeenCalledWith("Please select Customer or Professional");
    expect(signIn).not.toHaveBeenCalled();
  });

  it("signs in through the chosen role's provider; a professional goes to the dashboard", async () => {
    let finish!: () => void;
    signIn.mockReturnValueOnce(new Promise<void>((r) => (finish = r)));
    const user = await renderLogin();
    await user.type(screen.getByLabelText("Email or mobile number"), "pro@example.np");
    await user.type(screen.getByLabelText("Password", { selector: "input" }), "long-enough");
    await user.click(screen.getByLabelText("Professional"));
    await user.click(screen.getByRole("button", { name: "Login" }));
    expect(await screen.findByRole("button", { name: "Please wait" })).toBeDisabled();
    finish();
    await vi.waitFor(() => expect(navigate).toHaveBeenCalledWith("/professional-dashboard"));
    expect(signIn).toHaveBeenCalledWith("professional", {
      flow: "signIn",
      email: "pro@example.np",
      password: "long-enough",
    });
  });

  it("takes a Nepali mobile number instead of an email; anything else is refused before sending", async () => {
    const user = await renderLogin();
    const name = screen.getByLabelText("Email or mobile number");
    await user.type(name, "12345");
    await user.type(screen.getByLabelText("Password", { selector: "input" }), "long-enough");
    await user.click(screen.getByLabelText("Customer"));
    await user.click(screen.getByRole("button", { name: "Login" }));
    expect(
      await screen.findByText(
        "Enter an email address or a Nepali mobile number (98XXXXXXXX / 97XXXXXXXX).",
      ),
    ).toBeInTheDocument();
    expect(signIn).not.toHaveBeenCalled();
    await user.clear(name);
    await user.type(name, " 981-2345678 ");
    await user.click(screen.getByRole("button", { name: "Login" }));
    await vi.waitFor(() =>
      expect(signIn).toHaveBeenCalledWith("customer", {
        flow: "signIn",
        email: "981-2345678",
        password: "long-enough",
      }),
    );
  });

  it("shows the server's message, else 'Something went wrong'", async () => {
    signIn.mockRejectedValueOnce(
      new ConvexError({ code: "INVALID_CREDENTIALS", message: "Invalid email or password" }),
    );
    signIn.mockRejectedValueOnce(new Error("[Request ID: 1] Server Error"));
    const user = await renderLogin();
    await user.type(screen.getByLabelText("Email or mobile number"), "sita@example.np");
    await user.type(screen.getByLabelText("Password", { selector: "input" }), "whatever1");
    await user.click(screen.getByLabelText("Customer"));
    await user.click(screen.getByRole("button", { name: "Login" }));
    await vi.waitFor(() => expect(toast.error).toHaveBeenCalledWith("Invalid email or password"));
    await user.click(screen.getByRole("button", { name: "Login" }));
    await vi.waitFor(() => expect(toast.error).toHaveBeenCalledWith("Something went wrong"));
    expect(navigate).not.toHaveBeenCalled();
  });
});

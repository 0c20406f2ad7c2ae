import { cleanup, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter } from "react-router-dom";
import { ConvexError } from "convex/values";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SignupForm } from "@/features/auth/signup-form";

const signIn = vi.fn();
const generateUploadUrl = vi.fn();
const navigate = vi.fn();

vi.mock("@convex-dev/auth/react", () => ({ useAuthActions: () => ({ signIn }) }));
vi.mock("convex/react", () => ({
  useMutation: () => generateUploadUrl,
  useConvexAuth: () => ({ isAuthenticated: true, isLoading: false }),
}));
const draft = { prepare: vi.fn(), token: vi.fn(async () => "draft-token"), refused: vi.fn() };
vi.mock("@/features/auth/sign-up-draft", () => ({ useSignUpDraft: () => draft }));
vi.mock("sonner", () => ({ toast: { error: vi.fn(), success: vi.fn(), info: vi.fn() } }));
vi.mock("react-router-dom", async (importOriginal) => ({
  ...(await importOriginal<typeof import("react-router-dom")>()),
  useNavigate: () => navigate,
}));
vi.mock("@/lib/upload", async (importOriginal) => ({
  ...(await importOriginal<typeof import("@/lib/upload")>()),
  uploadImage: vi.fn(async (_url: string, file: File, onProgress?: (f: number) => void) => {
    onProgress?.(1);
    return `storage-${file.name}`;
  }),
}));

const { toast } = await import("sonner");

function renderForm(role: "" | "customer" | "professional" = "") {
  render(
    <MemoryRouter>
      <SignupForm initialRole={role} />
    </MemoryRouter>,
  );
  return userEvent.setup();
}

async function fillValidCustomer(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText("Full Name"), "Sita Sharma");
  await user.type(screen.getByLabelText("Email"), "sita@example.np");
  await user.type(screen.getByLabelText("Phone Number"), "9841234567");
  await user.type(screen.getByLabelText("Password", { selector: "input" }), "long-enough");
  await user.type(screen.getByLabelText("Address"), "Ward 4, Nepalgunj");
  await user.type(screen.getByLabelText("Zip Code"), "21900");
}

afterEach(cleanup);
beforeEach(() => {
  vi.clearAllMocks();
  generateUploadUrl.mockResolvedValue("http://127.0.0.1:3210/upload");
});

describe("SignupForm", () => {
  it("asks for a role with the spec's toast and sends nothing", async () => {
    const user = renderForm("");
    await fillValidCustomer(user);
    await user.click(screen.getByRole("button", { name: "Create Account" }));
    expect(toast.error).toHaveBeenCalledWith("Please choose a role: Customer or Professional");
    expect(signIn).not.toHaveBeenCalled();
  });

  it("shows inline errors before submit for what the server would refuse", async () => {
    const user = renderForm("customer");
    await user.type(screen.getByLabelText("Email"), "not-an-email");
    await user.type(screen.getByLabelText("Password", { selector: "input" }), "short");
    await user.type(screen.getByLabelText("Phone Number"), "12345");
    await user.tab();
    expect(await screen.findByText("Enter a valid email address.")).toBeInTheDocument();
    expect(screen.getByText("Password must be at least 8 characters.")).toBeInTheDocument();
    expect(screen.getByText(/Enter a Nepali mobile/)).toBeInTheDocument();
    expect(screen.getByLabelText("Email")).toHaveAttribute("aria-invalid", "true");
  });

  it("refuses non-images, photos over 25 MB and GIFs over 5 MB; takes a 10 MB photo to shrink it", async () => {
    const user = userEvent.setup({ applyAccept: false });
    render(
      <MemoryRouter>
        <SignupForm initialRole="customer" />
      </MemoryRouter>,
    );
    const input = screen.getByLabelText("Profile Photo (optional)");
    await user.upload(input, new File(["%PDF"], "cv.pdf", { type: "application/pdf" }));
    expect(
      await screen.findByText("Only images (JPEG, PNG, WebP or GIF) are allowed."),
    ).toBeInTheDocument();
    const mb = (n: number) => new Uint8Array(n * 1024 * 1024 + 1);
    await user.upload(input, new File([mb(25)], "huge.jpg", { type: "image/jpeg" }));
    expect(await screen.findByText("The image must be 25 MB or smaller.")).toBeInTheDocument();
    await user.upload(input, new File([mb(5)], "big.gif", { type: "image/gif" }));
    expect(await screen.findByText("The image must be 5 MB or smaller.")).toBeInTheDocument();
    await user.upload(input, new File([mb(10)], "phone-photo.jpg", { type: "image/jpeg" }));
    await waitFor(() => expect(screen.queryByText(/The image must be/)).not.toBeInTheDocument());
    expect(input).not.toHaveAttribute("aria-invalid", "true");
  });

  it("lists missing professional details together with other errors", async () => {
    const user = renderForm("");
    await user.click(screen.getByLabelText("Professional"));
    await user.click(screen.getByRole("button", { name: "Create Account" }));
    expect(await screen.findByText("Enter a valid email address.")).toBeInTheDocument();
    expect(screen.getByText("Choose your city.")).toBeInTheDocument();
    expect(screen.getByText("Training Certificate image is required.")).toBeInTheDocument();
  });

  it("asks professionals for their documents", async () => {
    const user = renderForm("professional");
    await fillValidCustomer(user);
    await user.click(screen.getByRole("button", { name: "Create Account" }));
    expect(await screen.findByText("Citizenship Front image is required.")).toBeInTheDocument();
    expect(screen.getByText("Choose your specialty.")).toBeInTheDocument();
    expect(signIn).not.toHaveBeenCalled();
  });

  it("uploads the photo, signs up with the chosen role, signed in, then goes home", async () => {
    const user = renderForm("");
    await fillValidCustomer(user);
    await user.click(screen.getByLabelText("Customer"));
    await user.upload(
      screen.getByLabelText("Profile Photo (optional)"),
      new File(["x"], "me.png", { type: "image/png" }),
    );
    await user.click(screen.getByRole("button", { name: "Create Account" }));
    await vi.waitFor(() => expect(navigate).toHaveBeenCalledWith("/"));
    expect(generateUploadUrl).toHaveBeenCalledWith({ draft: "draft-token" });
    expect(signIn).toHaveBeenCalledWith("customer", {
      flow: "signUp",
      draft: "draft-token",
      email: "sita@example.np",
      password: "long-enough",
      name: "Sita Sharma",
      phone: "9841234567",
      address: "Ward 4, Nepalgunj",
      zipCode: "21900",
      photo: "storage-me.png",
    });
    // while the next page loads (a slow phone), the created account cannot be submitted again
    await waitFor(() =>
      expect(screen.getByRole("button", { name: "Create Account" })).toBeDisabled(),
    );
  });

  it("shows the server's message when sign-up is refused", async () => {
    signIn.mockRejectedValueOnce(
      new ConvexError({
        code: "EMAIL_TAKEN",
        message: "An account with this email already exists",
      }),
    );
    const user = renderForm("customer");
    await fillValidCustomer(user);
    await user.click(screen.getByRole("button", { name: "Create Account" }));
    await vi.waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith("An account with this email already exists"),
    );
    expect(navigate).not.toHaveBeenCalled();
    expect(draft.refused).toHaveBeenCalledWith(expect.any(ConvexError)); // it drops a draft the server no longer takes
  });
});

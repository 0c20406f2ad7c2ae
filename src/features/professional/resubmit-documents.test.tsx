import { cleanup, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { getFunctionName, type FunctionReference } from "convex/server";
import { ConvexError } from "convex/values";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ResubmitDocuments } from "@/features/professional/resubmit-documents";

const generateUploadUrl = vi.fn();
const resubmit = vi.fn();

vi.mock("convex/react", () => ({
  useMutation: (ref: FunctionReference<"mutation">) =>
    getFunctionName(ref) === "files:generateUploadUrl" ? generateUploadUrl : resubmit,
}));
vi.mock("sonner", () => ({ toast: { error: vi.fn(), success: vi.fn() } }));
vi.mock("@/lib/upload", async (importOriginal) => ({
  ...(await importOriginal<typeof import("@/lib/upload")>()),
  uploadImage: vi.fn(async (_url: string, file: File, onProgress?: (f: number) => void) => {
    onProgress?.(1);
    return `storage-${file.name}`;
  }),
}));

const { toast } = await import("sonner");
const { uploadImage } = await import("@/lib/upload");

const png = (name: string) =>
  new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], name, { type: "image/png" });
const current = {
  citizenshipFront: "https://files.test/front",
  citizenshipBack: null,
  trainingCertificate: "https://files.test/cert",
};

function renderForm() {
  const onDone = vi.fn();
  render(<ResubmitDocuments current={current} onDone={onDone} />);
  return { onDone, user: userEvent.setup({ applyAccept: false }) };
}

const send = () => screen.getByRole("button", { name: "Send for review" });

afterEach(cleanup);
beforeEach(() => {
  vi.clearAllMocks();
  URL.createObjectURL = vi.fn((file: Blob) => `blob:${(file as File).name}`);
  URL.revokeObjectURL = vi.fn();
  generateUploadUrl.mockResolvedValue("http://127.0.0.1:3210/upload");
  resubmit.mockResolvedValue(null);
});

describe("ResubmitDocuments", () => {
  it("shows the documents on file, then a preview of each new image chosen", async () => {
    const { user } = renderForm();
    expect(screen.getByRole("img", { name: "Citizenship Front (on file)" })).toHaveAttribute(
      "src",
      current.citizenshipFront,
    );
    expect(screen.getAllByText("No image")).toHaveLength(1);
    await user.upload(screen.getByLabelText("New Citizenship Front"), png("front.png"));
    expect(screen.getByRole("img", { name: "Citizenship Front (new)" })).toHaveAttribute(
      "src",
      "blob:front.png",
    );
    expect(screen.getByText("New image, not sent yet")).toBeInTheDocument();
  });

  it("sends nothing until an image is chosen, and refuses what is not an image as sign-up does", async () => {
    const { user } = renderForm();
    expect(send()).toBeDisabled();
    await user.upload(
      screen.getByLabelText("New Citizenship Back"),
      new File(["%PDF"], "scan.pdf", { type: "application/pdf" }),
    );
    expect(
      await screen.findByText("Only images (JPEG, PNG, WebP or GIF) are allowed."),
    ).toBeInTheDocument();
    expect(screen.queryByRole("img", { name: "Citizenship Back (new)" })).not.toBeInTheDocument();
    await user.click(send());
    expect(uploadImage).not.toHaveBeenCalled();
    expect(resubmit).not.toHaveBeenCalled();
  });

  it("uploads only the chosen images, sends their ids, confirms and closes", async () => {
    const { user, onDone } = renderForm();
    await user.upload(screen.getByLabelText("New Citizenship Front"), png("front.png"));
    await user.upload(screen.getByLabelText("New Training Certificate"), png("cert.png"));
    await user.click(send());
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(uploadImage).toHaveBeenCalledTimes(2);
    expect(resubmit).toHaveBeenCalledWith({
      citizenshipFront: "storage-front.png",
      trainingCertificate: "storage-cert.png",
    });
    expect(toast.success).toHaveBeenCalledWith("Documents sent. An admin will review them again.");
  });

  it("shows the server's reason and keeps the form open when it refuses", async () => {
    resubmit.mockRejectedValue(
      new ConvexError({
        code: "ALREADY_VERIFIED",
        message:
          "Your account is already verified. To change your documents, please contact GharSewa.",
      }),
    );
    const { user, onDone } = renderForm();
    await user.upload(screen.getByLabelText("New Citizenship Back"), png("back.png"));
    await user.click(send());
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith(
        "Your account is already verified. To change your documents, please contact GharSewa.",
      ),
    );
    expect(onDone).not.toHaveBeenCalled();
    expect(send()).toBeEnabled();
  });
});

import { afterEach, describe, expect, test, vi } from "vitest";
import { m } from "@/i18n/paraglide/messages";
import { setLocale } from "@/i18n/locale";
import { errorData, errorMessage } from "@/lib/errors";
import { uploadImage } from "@/lib/upload";

/** An XMLHttpRequest that answers every send with `status` and `body`. */
function answering(status: number, body: string) {
  return class {
    status = 0;
    responseText = "";
    upload: {
      onprogress?: (e: { lengthComputable: boolean; loaded: number; total: number }) => void;
    } = {};
    onload?: () => void;
    onerror?: () => void;
    open() {}
    setRequestHeader() {}
    send() {
      this.status = status;
      this.responseText = body;
      queueMicrotask(() => this.onload?.());
    }
  };
}

const gif = () => new File([new Uint8Array([0x47, 0x49, 0x46])], "a.gif", { type: "image/gif" });

afterEach(() => {
  vi.unstubAllGlobals();
  setLocale("en");
});

describe("uploadImage", () => {
  test("resolves with the storage id the upload URL answers", async () => {
    vi.stubGlobal("XMLHttpRequest", answering(200, JSON.stringify({ storageId: "kg123" })));
    await expect(uploadImage("http://127.0.0.1:3211/api/uploads?grant=x", gif())).resolves.toBe(
      "kg123",
    );
  });

  test("a refused upload rejects with the server's refusal, worded by its code", async () => {
    const refused = {
      success: false,
      code: "UPLOAD_URL_INVALID",
      message: "This upload link was used or has expired; please try again.",
    };
    vi.stubGlobal("XMLHttpRequest", answering(403, JSON.stringify(refused)));
    const error = await uploadImage("http://127.0.0.1:3211/api/uploads?grant=x", gif()).catch(
      (e: unknown) => e,
    );
    expect(errorData(error)).toMatchObject({ code: refused.code, message: refused.message });
    expect(errorMessage(error, "fallback")).toBe(refused.message);
    setLocale("ne-NP");
    expect(errorMessage(error, "fallback")).toBe(m.error_upload_url_invalid());
  });

  test("an answer without a reason says the status", async () => {
    vi.stubGlobal("XMLHttpRequest", answering(502, "Bad Gateway"));
    await expect(uploadImage("http://127.0.0.1:3211/api/uploads?grant=x", gif())).rejects.toThrow(
      "Upload failed (502).",
    );
  });
});

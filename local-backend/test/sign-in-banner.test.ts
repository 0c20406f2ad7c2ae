import { describe, expect, test } from "vitest";
import { signInLines } from "../sign-in-banner";

const webOrigin = "http://127.0.0.1:5173";
const token = "ab".repeat(32);

describe("the start banner's sign-in lines", () => {
  test("on the first start: the sign-in pages, the demo logins, the first admin's setup link", () => {
    const text = signInLines({
      webOrigin,
      seeded: { adminCreated: "admin", adminSetupToken: token },
      demo: true,
    }).join("\n");
    expect(text).toContain("http://127.0.0.1:5173/login");
    expect(text).toContain("/admin-login");
    expect(text).toContain("customer@demo.np");
    expect(text).toContain("demo-password-1");
    expect(text).toContain("First admin:     admin");
    expect(text).toContain(`http://127.0.0.1:5173/admin-setup?token=${token}`);
  });

  test("on a later start: how to get a setup link, and no demo logins with --no-demo", () => {
    const text = signInLines({
      webOrigin,
      seeded: { adminCreated: null, adminSetupToken: null },
      demo: false,
    }).join("\n");
    expect(text).toContain("npm run create-admin -- <username>");
    expect(text).not.toContain("/admin-setup");
    expect(text).not.toContain("demo.np");
  });

  test("without seed:init it says nothing about admins", () => {
    const text = signInLines({ webOrigin, seeded: undefined, demo: true }).join("\n");
    expect(text).not.toMatch(/admin:|create-admin/);
  });
});

import { describe, expect, it } from "vitest";
import { isAdminPath, paths } from "@/lib/paths";

describe("paths", () => {
  it("builds the search URL with location then serviceName, encoded", () => {
    expect(paths.serviceSearch("Tile-Marble Fitting", "Kathmandu")).toBe(
      "/services/search?location=Kathmandu&serviceName=Tile-Marble+Fitting",
    );
  });

  it("hides the public header only on admin paths", () => {
    expect(isAdminPath("/admin-login")).toBe(true);
    expect(isAdminPath("/admin-panel")).toBe(true);
    expect(isAdminPath("/admin/users")).toBe(true);
    expect(isAdminPath("/administrator")).toBe(false);
    expect(isAdminPath("/")).toBe(false);
  });
});

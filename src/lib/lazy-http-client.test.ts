import { describe, expect, it, vi } from "vitest";
import { anyApi } from "convex/server";
// the provider as vite bundles it (vite.config.ts resolves its convex/browser import to the shim)
import provider from "../../node_modules/@convex-dev/auth/dist/react/index.js?raw";

const made: unknown[][] = [];
vi.mock("@/lib/http-client", () => ({
  ConvexHttpClient: class {
    constructor(...args: unknown[]) {
      made.push(args);
    }
    action(...args: unknown[]) {
      return Promise.resolve({ called: args });
    }
  },
}));

const { ConvexHttpClient } = await import("@/lib/lazy-http-client");

describe("the auth provider's HTTP client, fetched on first use", () => {
  it("makes the real client with the same address and options, and forwards the action", async () => {
    const client = new ConvexHttpClient("http://127.0.0.1:3210", { logger: false });
    expect(made).toEqual([]);
    const result = await client.action(anyApi.auth.signIn, { provider: "password" });
    expect(made).toEqual([["http://127.0.0.1:3210", { logger: false }]]);
    expect(result).toEqual({ called: [anyApi.auth.signIn, { provider: "password" }] });
  });

  it("is all @convex-dev/auth's provider asks of it: new ConvexHttpClient(…).action(…)", () => {
    const uses = provider.match(/ConvexHttpClient\b[^;]*/g) ?? [];
    // the import, then each use: a client made for one action
    expect(uses[0]).toMatch(/^ConvexHttpClient \} from "convex\/browser"/);
    expect(uses.length).toBeGreaterThan(1);
    for (const use of uses.slice(1))
      expect(use).toMatch(/^ConvexHttpClient\([^)]*\{[^}]*\}\)\.action\(/s);
  });
});

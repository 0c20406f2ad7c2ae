import path from "node:path";
import type { Plugin } from "vite";
import { describe, expect, it } from "vitest";
import { routePreload } from "./vite-route-preload.ts";

const ROUTER = "src/app/router.tsx";
const plugin = (routes: Record<string, string[]>) =>
  routePreload({ routes, router: ROUTER, fonts: [], nepaliFonts: [] });

/** A hook of the plugin as the bundler calls it, `this` a context giving the router's dynamic imports. */
function run(p: Plugin, name: "buildStart" | "buildEnd", routerImports: string[] = []) {
  const hook = p[name] as (this: unknown, arg?: unknown) => void;
  const context = {
    getModuleInfo: (id: string) =>
      id === path.resolve(ROUTER)
        ? { dynamicallyImportedIds: routerImports.map((m) => path.resolve(m)) }
        : null,
  };
  return () => hook.call(context);
}

const ABOUT = "src/features/landing/about-page.tsx";

describe("routePreload", () => {
  it("accepts routes whose modules exist and are the router's dynamic imports", () => {
    const p = plugin({ "/about": [ABOUT], "/login": ["src/app/guards.tsx", ABOUT] });
    expect(run(p, "buildStart")).not.toThrow();
    expect(run(p, "buildEnd", [ABOUT, "src/app/guards.tsx"])).not.toThrow();
  });

  it("fails the build on a listed module that does not exist", () => {
    const p = plugin({ "/about": ["src/features/landing/about-us-page.tsx"] });
    expect(run(p, "buildStart")).toThrow(
      'route-preload: src/features/landing/about-us-page.tsx, listed for "/about", does not exist',
    );
  });

  it("fails the build on a route the router no longer loads from the listed module", () => {
    const p = plugin({ "/about": [ABOUT] });
    expect(run(p, "buildStart")).not.toThrow();
    expect(run(p, "buildEnd", ["src/features/landing/contact-page.tsx"])).toThrow(
      `route-preload: ${ROUTER} does not import ${ABOUT}, listed for "/about"`,
    );
  });

  it("fails the build on a route that is not a page's plain path", () => {
    expect(run(plugin({ "/professionals/:id": [ABOUT] }), "buildStart")).toThrow(
      'route-preload: "/professionals/:id" is not a page\'s path',
    );
    expect(run(plugin({ "/about?x=1": [ABOUT] }), "buildStart")).toThrow("is not a page's path");
    expect(run(plugin({ "/about": [] }), "buildStart")).toThrow('"/about" lists no module');
  });
});

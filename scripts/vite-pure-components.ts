import type { Plugin } from "vite";

/**
 * Lets the bundler drop the components of `packages` (their production builds) that the app never
 * renders. react-router's production build creates its components with unannotated
 * `React.forwardRef(…)` / `createContext(…)` calls and names them with top-level
 * `Component.displayName = "…"` writes; a bundler must keep a call or a property write it cannot
 * prove pure, and with it all the component uses: its framework mode (route prefetching, <Form>,
 * <Scripts>) was in the landing's initial JS. The calls are marked pure, the names (for React
 * DevTools, which a production build does not feed) dropped.
 */
export function pureComponents(packages: string[]): Plugin {
  const production = new RegExp(
    `node_modules[\\\\/](${packages.join("|")})[\\\\/]dist[\\\\/]production[\\\\/]`,
  );
  return {
    name: "gharsewa:pure-components",
    apply: "build",
    transform(code, id) {
      if (!production.test(id)) return null;
      const pure = code
        .replace(/^[\w$]+\.displayName = "[\w$.]+";$/gm, "")
        .replace(
          /(?<!__PURE__ \*\/ )\b(React\d*\.(?:forwardRef|createContext|memo)\()/g,
          "/* @__PURE__ */ $1",
        );
      return { code: pure, map: null };
    },
  };
}

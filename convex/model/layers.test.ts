import { expect, test } from "vitest";
import readme from "../../README.md?raw";

const modules = Object.keys(import.meta.glob(["./**/*.ts", "!./**/*.test.ts"]));

test("the README's drawing of convex/model's layers names every module in it", () => {
  const drawing = readme.slice(readme.indexOf("`convex/model/` reads as layers"));
  const mermaid = drawing.slice(drawing.indexOf("```mermaid"), drawing.indexOf("```\n", 10));
  const named = new Set(mermaid.match(/[A-Za-z]+\/?/g));
  const missing = modules
    .map((path) => path.replace(/^\.\//, "").replace(/\.ts$/, ""))
    .map((name) => (name.includes("/") ? name.slice(0, name.indexOf("/") + 1) : name))
    .filter((name) => !named.has(name));
  expect(missing).toEqual([]);
});

// The site port's request targets (site.ts targetUrl): a plain target skips the URL parser, and what it
// answers must be exactly what the parser gives for every target.
import { describe, expect, it } from "vitest";
import { targetUrl } from "../site.ts";

const reference = (siteUrl: string, target: string) => {
  if (!target.startsWith("/")) return null;
  try {
    const url = new URL(new URL(siteUrl).origin + target);
    return { href: url.href, pathname: url.pathname };
  } catch {
    return null;
  }
};

const ALPHABET = [
  "a",
  "Z",
  "0",
  "-",
  "_",
  ".",
  "..",
  "~",
  "/",
  "//",
  "?",
  "#",
  "%",
  "%2e",
  "%2E",
  "'",
  "\\",
  " ",
  "[",
  "|",
  "^",
  "`",
  "{",
  "@",
  ":",
  ";",
  "=",
  "&",
  "!",
  "$",
  "(",
  "*",
  "+",
  ",",
  "é",
  "ा",
  "\t",
];

describe("targetUrl", () => {
  it("answers as the URL parser does for 20,000 random targets", () => {
    let seed = 13;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (const siteUrl of ["http://127.0.0.1:4141", "http://127.0.0.1:80"]) {
      for (let i = 0; i < 10_000; i++) {
        let target = random(10) === 0 ? "" : "/";
        for (let n = random(12); n > 0; n--) target += ALPHABET[random(ALPHABET.length)];
        const got = targetUrl(siteUrl, target);
        expect(got && { href: got.href, pathname: got.pathname }, target).toEqual(
          reference(siteUrl, target),
        );
      }
    }
  });

  it("takes the spec's paths without parsing them", () => {
    expect(targetUrl("http://127.0.0.1:4141", "/api/services/category/electrical")).toEqual({
      href: "http://127.0.0.1:4141/api/services/category/electrical",
      pathname: "/api/services/category/electrical",
    });
    expect(targetUrl("http://127.0.0.1:80", "/api/technicians/search?specialty=x&city=y")).toEqual({
      href: "http://127.0.0.1/api/technicians/search?specialty=x&city=y",
      pathname: "/api/technicians/search",
    });
  });
});

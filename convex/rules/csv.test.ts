import { describe, expect, test } from "vitest";
import { csvCell, toCsv } from "./csv";

describe("CSV a spreadsheet opens as text", () => {
  test.each([
    ['=HYPERLINK("http://evil")', `"'=HYPERLINK(""http://evil"")"`],
    ["+91 98", "'+91 98"],
    ["-2+3", "'-2+3"],
    ["@SUM(A1)", "'@SUM(A1)"],
    ["\tcmd", "'\tcmd"],
    ["\r=1", `"'\r=1"`],
  ])("defuses a cell starting a formula: %j", (value, expected) => {
    expect(csvCell(value)).toBe(expected);
  });

  test("quotes commas, quotes and line breaks; leaves plain text and numbers alone", () => {
    expect(csvCell("NIC Asia, Kathmandu")).toBe('"NIC Asia, Kathmandu"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell("two\nlines")).toBe('"two\nlines"');
    expect(csvCell("payout:abc")).toBe("payout:abc");
    expect(csvCell("बैंक")).toBe("बैंक");
    expect(csvCell(-135_000)).toBe("-135000");
    expect(csvCell(null)).toBe("");
  });

  test("writes the header, then each row, CRLF after each", () => {
    expect(
      toCsv(
        ["a", "b"],
        [
          [1, "=x"],
          [null, "y"],
        ],
      ),
    ).toBe("a,b\r\n1,'=x\r\n,y\r\n");
  });
});

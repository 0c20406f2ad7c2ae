/** The readable table and the SVG chart of `npm run bench`'s results. */
import type { Summary } from "./stats";

export const fmtMs = (x: number) =>
  Number.isFinite(x) ? (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2)) : "-";
export const ratio = (ours: number, base: number) =>
  Number.isFinite(ours) && Number.isFinite(base) && base !== 0 ? ours / base : NaN;
export const fmtRatio = (r: number) =>
  Number.isFinite(r) ? `${r >= 10 ? r.toFixed(0) : r.toFixed(2)}×` : "-";

export function table(headers: string[], rows: (string | number)[][]): string {
  const cells = [headers, ...rows.map((r) => r.map(String))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? "").length)));
  const line = (r: string[]) =>
    r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  return [
    line(cells[0]),
    widths.map((w) => "─".repeat(w)).join("  "),
    ...cells.slice(1).map(line),
  ].join("\n");
}

export type ChartRow = {
  label: string;
  group: string;
  summary: Pick<Summary, "min" | "p50" | "p95" | "p99">;
};

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;");

/** Horizontal log-scale chart: one row per target, a bar to p99 with marks at min, p50 and p95. */
export function latencySvg(title: string, rows: ChartRow[]): string {
  const left = 230;
  const width = 900;
  const plot = width - left - 30;
  const rowH = 26;
  const top = 60;
  const height = top + rows.length * rowH + 30;
  const values = rows
    .flatMap((r) => [r.summary.min, r.summary.p99])
    .filter((v) => Number.isFinite(v) && v > 0);
  const lo = 10 ** Math.floor(Math.log10(Math.min(...values, 1)));
  const hi = 10 ** Math.ceil(Math.log10(Math.max(...values, 10)));
  const x = (v: number) =>
    left +
    (plot * (Math.log10(Math.max(v, lo)) - Math.log10(lo))) / (Math.log10(hi) - Math.log10(lo));
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="system-ui, sans-serif" font-size="12">`,
  );
  out.push(`<rect width="100%" height="100%" fill="#fff"/>`);
  out.push(`<text x="${left}" y="22" font-size="15" font-weight="600">${esc(title)}</text>`);
  out.push(
    `<text x="${left}" y="42" fill="#555">log scale, ms — bar: min → p99; ● median, ▲ p95. Darker = ours, lighter = same-run baseline</text>`,
  );
  for (let d = lo; d <= hi; d *= 10) {
    out.push(
      `<line x1="${x(d)}" y1="${top - 6}" x2="${x(d)}" y2="${top + rows.length * rowH}" stroke="#ddd"/>`,
    );
    out.push(
      `<text x="${x(d)}" y="${top + rows.length * rowH + 16}" text-anchor="middle" fill="#555">${d < 1 ? d.toFixed(String(d).length - 2) : d}</text>`,
    );
  }
  let lastGroup = "";
  rows.forEach((r, i) => {
    const y = top + i * rowH;
    const ours = !/baseline|peer|echo|bare/i.test(r.label);
    const color = ours ? "#1d4ed8" : "#94a3b8";
    if (r.group !== lastGroup && i > 0)
      out.push(`<line x1="10" y1="${y - 1}" x2="${width - 10}" y2="${y - 1}" stroke="#eee"/>`);
    lastGroup = r.group;
    out.push(`<text x="${left - 8}" y="${y + 16}" text-anchor="end">${esc(r.label)}</text>`);
    const s = r.summary;
    if (![s.min, s.p50, s.p95, s.p99].every(Number.isFinite)) return;
    out.push(
      `<rect x="${x(s.min)}" y="${y + 6}" width="${Math.max(1, x(s.p99) - x(s.min))}" height="12" rx="2" fill="${color}" opacity="0.35"/>`,
    );
    out.push(
      `<circle cx="${x(s.p50)}" cy="${y + 12}" r="4.5" fill="${color}"><title>median ${fmtMs(s.p50)} ms</title></circle>`,
    );
    out.push(
      `<path d="M${x(s.p95) - 5},${y + 17} L${x(s.p95) + 5},${y + 17} L${x(s.p95)},${y + 7} Z" fill="${color}"><title>p95 ${fmtMs(s.p95)} ms</title></path>`,
    );
    const text = `p50 ${fmtMs(s.p50)} · p95 ${fmtMs(s.p95)} · p99 ${fmtMs(s.p99)}`;
    // Right of the bar, or left of it when the bar reaches the right edge.
    const fits = x(s.p99) + 6 + 190 <= width;
    out.push(
      `<text x="${fits ? x(s.p99) + 6 : x(s.min) - 6}" y="${y + 16}" fill="#333"${fits ? "" : ' text-anchor="end"'}>${text}</text>`,
    );
  });
  out.push(`</svg>`);
  return out.join("\n");
}

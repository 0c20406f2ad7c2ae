/** Percentiles and summaries over latency samples (milliseconds). */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

export type Summary = {
  n: number;
  min: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
};

export function summarize(samples: number[]): Summary {
  const s = [...samples].sort((a, b) => a - b);
  return {
    n: s.length,
    min: s[0] ?? NaN,
    p50: percentile(s, 50),
    p95: percentile(s, 95),
    p99: percentile(s, 99),
    max: s[s.length - 1] ?? NaN,
  };
}

export const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;

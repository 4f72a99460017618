/** One measured number of `npm run bench`. */
export interface BenchResult {
  name: string;
  value: number;
  unit: string;
  /** The target as the issue states it, e.g. "≤ 10 ms". */
  target?: string;
  /** A side-by-side comparison in the same run (e.g. naive time / our time). */
  ratio?: number;
  pass?: boolean;
  notes?: string;
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] as number;
}

export const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

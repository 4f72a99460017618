// Edit-distance similarity with bounded work: callers only care whether lines are fairly alike,
// so the dynamic programme runs in a diagonal band and gives up once the distance is out of reach.

let rowA = new Int32Array(256);
let rowB = new Int32Array(256);

/**
 * How alike two strings are, from 0 to 1: one minus the Levenshtein distance over the longer
 * length. Anything below `floor` is reported as 0, which keeps the work to O(length × band).
 */
export function similarity(a: string, b: string, floor = 0.4): number {
  if (a === b) return 1;
  // Common prefix and suffix cost nothing; strip them so the band covers only the differences.
  let start = 0;
  const shortest = Math.min(a.length, b.length);
  while (start < shortest && a.charCodeAt(start) === b.charCodeAt(start)) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a.charCodeAt(endA - 1) === b.charCodeAt(endB - 1)) {
    endA--;
    endB--;
  }
  const longer = Math.max(a.length, b.length);
  const budget = Math.floor(longer * (1 - floor));
  const distance = boundedDistance(a.slice(start, endA), b.slice(start, endB), budget);
  return distance > budget ? 0 : 1 - distance / longer;
}

/** Levenshtein distance of `a` and `b`, or `max + 1` as soon as it is known to exceed `max`. */
export function boundedDistance(a: string, b: string, max: number): number {
  let short = a;
  let long = b;
  if (short.length > long.length) [short, long] = [long, short];
  const n = short.length;
  const m = long.length;
  if (m - n > max) return max + 1;
  if (n === 0) return m;
  if (rowA.length <= n + 1) {
    rowA = new Int32Array(2 * (n + 1));
    rowB = new Int32Array(2 * (n + 1));
  }
  const out = max + 1;
  let prev = rowA;
  let cur = rowB;
  for (let i = 0; i <= n; i++) prev[i] = i <= max ? i : out;
  for (let j = 1; j <= m; j++) {
    const lo = Math.max(1, j - max);
    const hi = Math.min(n, j + max);
    cur[lo - 1] = lo === 1 && j <= max ? j : out;
    const code = long.charCodeAt(j - 1);
    let rowMin = cur[lo - 1] as number;
    for (let i = lo; i <= hi; i++) {
      const substitute = (prev[i - 1] as number) + (short.charCodeAt(i - 1) === code ? 0 : 1);
      const remove = (prev[i] as number) + 1;
      const insert = (cur[i - 1] as number) + 1;
      const best = Math.min(substitute, remove, insert);
      cur[i] = best;
      if (best < rowMin) rowMin = best;
    }
    if (hi < n) cur[hi + 1] = out;
    if (rowMin > max) return out;
    [prev, cur] = [cur, prev];
  }
  return Math.min(prev[n] as number, out);
}

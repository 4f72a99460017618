// The limits that keep loose strategies from editing the wrong place (spec: "safety beats reach").

/** Below this average similarity of the lines between two anchors, a block is not a match. */
export const MIN_MIDDLE_SIMILARITY = 0.65;

/** A span of this many lines or more is never a match for an `n`-line old_string. */
export function tooLongSpan(n: number): number {
  return Math.max(n + 3, 2 * n);
}

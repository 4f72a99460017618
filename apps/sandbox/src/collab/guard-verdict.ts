/** What to do with one frame from the browser. */
export type GuardVerdict =
  | { kind: "forward"; data: Uint8Array }
  | { kind: "drop" }
  /** A violation: the whole socket closes (log it once). */
  | { kind: "close"; why: string };

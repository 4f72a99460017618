/** An import (clone, unpack) that failed for a reason a person can act on; the message says it. */
export class ImportError extends Error {
  constructor(
    message: string,
    /** `refused`: the request itself is not allowed (bad URL, foreign upload); `failed`: it ran and failed. */
    readonly kind: "refused" | "failed" = "failed",
  ) {
    super(message);
    this.name = "ImportError";
  }
}

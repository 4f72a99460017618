import type { z } from "zod";
import type { LineLogLimits } from "../container-streams/bounded-line-log";

/** How much of why a value was refused goes into the log line (the value itself never does). */
const MAX_WHY_CHARS = 300;

/** Refused notifications of one method are logged two at once, then one every ten seconds; the rest are counted. */
export const REFUSED_NOTIFICATION_LOG_LIMITS: LineLogLimits = {
  maxLineBytes: 1024,
  burst: 2,
  perSecond: 0.1,
  total: 1000,
};

export type Checked<T> = { ok: true; value: T } | { ok: false; why: string };

/**
 * A value the daemon sent, checked against its schema in the contract. What is wrong is said by
 * the first issue's place and message; a value nested deeper than the checker's stack counts as
 * malformed too, so nothing a daemon sends makes this throw.
 */
export function checkAgainst<S extends z.ZodType>(schema: S, value: unknown): Checked<z.output<S>> {
  try {
    const parsed = schema.safeParse(value);
    if (parsed.success) return { ok: true, value: parsed.data };
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? `${issue.path.join(".")}: ` : "";
    return { ok: false, why: `${where}${issue?.message ?? "not allowed"}`.slice(0, MAX_WHY_CHARS) };
  } catch (error) {
    return { ok: false, why: `cannot be checked: ${(error as Error).message}`.slice(0, MAX_WHY_CHARS) };
  }
}

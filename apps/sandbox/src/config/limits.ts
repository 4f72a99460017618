/**
 * What one person may hold and how it is written (CODER_DEFAULT_LIMITS, users.limits): read by the
 * configuration, the administration and the check itself (workspaces/user-limits.ts).
 */
import { z } from "zod";

/** What one person may hold: workspaces in all, running ones, and what their running ones use together. */
export interface Limits {
  workspaces: number;
  running: number;
  memoryMb: number;
  cpus: number;
  diskMb: number;
}

/** What each running workspace takes (every workspace gets the service's CODER_MEMORY_MB, CODER_CPUS, CODER_DISK_MB). */
export interface WorkspaceSize {
  memoryMb: number;
  cpus: number;
  /** 0: workspaces have no disk quota, so disk counts nothing. */
  diskMb: number;
}

/** Limits when CODER_DEFAULT_LIMITS leaves one out: room for a person's everyday work on one machine. */
export const DEFAULT_LIMITS: Limits = { workspaces: 10, running: 3, memoryMb: 8192, cpus: 8, diskMb: 51200 };

const count = z.number().int().min(0).max(1_000_000_000);

/** Some or all of the limits; an admin's override of a user stores this (users.limits). */
export const limitsOverride = z
  .object({
    workspaces: count,
    running: count,
    memoryMb: count,
    cpus: z.number().min(0).max(100_000),
    diskMb: count,
  })
  .partial()
  .strict();

export type LimitsOverride = z.infer<typeof limitsOverride>;

/**
 * `workspaces=10,running=3,memoryMb=8192,cpus=4,diskMb=51200` (any of them; the rest keep their
 * defaults). An unknown name or a value that is no number makes a readable issue.
 */
export const defaultLimitsSchema = z
  .string()
  .default("")
  .transform((text, ctx) => {
    const given: Record<string, number> = {};
    for (const entry of text.split(",").map((s) => s.trim())) {
      if (!entry) continue;
      const [name = "", value = ""] = entry.split("=").map((s) => s.trim());
      if (!/^\d+(\.\d+)?$/.test(value)) {
        ctx.addIssue({ code: "custom", message: `${entry} is not name=number (e.g. running=3)` });
        return z.NEVER;
      }
      given[name] = Number(value);
    }
    const parsed = limitsOverride.safeParse(given);
    if (!parsed.success) {
      const names = Object.keys(DEFAULT_LIMITS).join(", ");
      ctx.addIssue({
        code: "custom",
        message: `limits are ${names}, each a whole number (cpus may have a fraction)`,
      });
      return z.NEVER;
    }
    return { ...DEFAULT_LIMITS, ...parsed.data } satisfies Limits;
  });

/** A user's override as stored: JSON text, null, or (defensively) anything else, which counts as none. */
export function readOverride(json: string | null): LimitsOverride {
  if (!json) return {};
  try {
    const parsed = limitsOverride.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

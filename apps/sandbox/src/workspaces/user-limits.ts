import { z } from "zod";
import type { Db } from "../db/database";
import { ServiceError } from "../errors/service-error";

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

/** The numbers of one person's workspaces: all of them, and those asked to run. */
export interface Usage {
  workspaces: number;
  running: number;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * The one place that decides whether a person may have another workspace, or another one running:
 * CODER_DEFAULT_LIMITS, over which an admin may set a user's own (users.limits). A workspace counts
 * as running from the moment it is asked to run until it is asked to stop (its desired state), so
 * one starting counts like one running. A refusal says which limit, the numbers, and how to free it.
 */
export class UserLimits {
  constructor(
    private readonly db: Db,
    readonly defaults: Limits,
    readonly size: WorkspaceSize,
  ) {}

  /** The user's limits: the defaults with their override on top. */
  async of(userId: string): Promise<Limits> {
    const row = await this.db
      .selectFrom("users")
      .select("limits")
      .where("id", "=", userId)
      .executeTakeFirst();
    return { ...this.defaults, ...readOverride(row?.limits ?? null) };
  }

  async usage(userId: string, except?: string): Promise<Usage> {
    const rows = await this.db
      .selectFrom("workspaces")
      .select(["id", "desired_state"])
      .where("owner_id", "=", userId)
      .execute();
    return {
      workspaces: rows.length,
      running: rows.filter((r) => r.desired_state === "running" && r.id !== except).length,
    };
  }

  /** Before a new workspace (which starts at once, from the warm pool or not) is made for `userId`. */
  async admitCreate(userId: string): Promise<void> {
    const [limits, usage] = await Promise.all([this.of(userId), this.usage(userId)]);
    if (usage.workspaces >= limits.workspaces) {
      throw new ServiceError(
        "too_many",
        `you have ${usage.workspaces} of ${plural(limits.workspaces, "workspace")}; delete one to create another`,
      );
    }
    this.admitRunning(limits, usage.running, "create");
  }

  /** Before the stopped workspace `workspaceId` of `userId` starts again. */
  async admitStart(userId: string, workspaceId: string): Promise<void> {
    const [limits, usage] = await Promise.all([this.of(userId), this.usage(userId, workspaceId)]);
    this.admitRunning(limits, usage.running, "start");
  }

  /** One more running workspace beside `running` others must fit every limit on running ones. */
  private admitRunning(limits: Limits, running: number, verb: "create" | "start"): void {
    const free = `stop one to ${verb} another`;
    if (running >= limits.running) {
      throw new ServiceError(
        "too_many",
        `you have ${running} of ${plural(limits.running, "running workspace")}; ${free}`,
      );
    }
    const mb = (n: number) => `${n} MB`;
    const cpus = (n: number) => plural(n, "CPU");
    const resources = [
      { what: "memory", each: this.size.memoryMb, limit: limits.memoryMb, amount: mb },
      { what: "CPU", each: this.size.cpus, limit: limits.cpus, amount: cpus },
      { what: "disk", each: this.size.diskMb, limit: limits.diskMb, amount: mb },
    ];
    for (const { what, each, limit, amount } of resources) {
      const used = running * each;
      if (each > 0 && used + each > limit) {
        throw new ServiceError(
          "too_many",
          `your running workspaces use ${amount(used)} of your ${what} limit of ${amount(limit)} and one more needs ${amount(each)}; ${free}`,
        );
      }
    }
  }
}

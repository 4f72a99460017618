import { type Limits, readOverride, type WorkspaceSize } from "../config/limits";
import type { Db } from "../db/database";
import { ServiceError } from "../errors/service-error";

/** The numbers of one person's workspaces: all of them, and those asked to run. */
export interface Usage {
  workspaces: number;
  running: number;
}

/** Whose limits a refusal speaks of, and how to free one. */
interface Holder {
  has: string;
  their: string;
  free: string;
}
const YOU = (free: string): Holder => ({ has: "you have", their: "your", free });

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
    this.admitRunning(limits, usage.running, YOU("stop one to create another"));
  }

  /** Before the stopped workspace `workspaceId` of `userId` starts again. */
  async admitStart(userId: string, workspaceId: string): Promise<void> {
    const [limits, usage] = await Promise.all([this.of(userId), this.usage(userId, workspaceId)]);
    this.admitRunning(limits, usage.running, YOU("stop one to start another"));
  }

  /**
   * Before an admin gives `workspaceId` to `userId` (called `name`): it must fit their limits as
   * if they had made it, running or not as it is. The refusal speaks to the admin about them.
   */
  async admitTransfer(userId: string, name: string, workspaceId: string): Promise<void> {
    const [limits, usage, row] = await Promise.all([
      this.of(userId),
      this.usage(userId, workspaceId),
      this.db
        .selectFrom("workspaces")
        .select(["owner_id", "desired_state"])
        .where("id", "=", workspaceId)
        .executeTakeFirst(),
    ]);
    if (!row || row.owner_id === userId) return;
    const free = "raise their limits or free one of theirs first";
    if (usage.workspaces >= limits.workspaces) {
      throw new ServiceError(
        "too_many",
        `${name} has ${usage.workspaces} of ${plural(limits.workspaces, "workspace")}; ${free}`,
      );
    }
    if (row.desired_state === "running") {
      this.admitRunning(limits, usage.running, { has: `${name} has`, their: "their", free });
    }
  }

  /** One more running workspace beside `running` others must fit every limit on running ones. */
  private admitRunning(limits: Limits, running: number, words: Holder): void {
    const { has, their, free } = words;
    if (running >= limits.running) {
      throw new ServiceError(
        "too_many",
        `${has} ${running} of ${plural(limits.running, "running workspace")}; ${free}`,
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
          `${their} running workspaces use ${amount(used)} of ${their} ${what} limit of ${amount(limit)} and one more needs ${amount(each)}; ${free}`,
        );
      }
    }
  }
}

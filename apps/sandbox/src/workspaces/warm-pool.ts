import type { Db } from "../db/database";
import type { WorkspaceTable } from "../db/schema";
import type { WorkspaceDriver } from "../driver/workspace-driver";

/** How long the engine must have been free of creates and starts before the pool makes a spare. */
const QUIET_MS = 1000;
const POLL_MS = 200;
/** After a failed spare, wait this long (doubling, up to BACKOFF_MAX_MS) before the next try. */
const BACKOFF_MS = 5000;
const BACKOFF_MAX_MS = 5 * 60_000;
/**
 * A spare container with neither a pool row nor a workspace row is left over from a service that
 * died while making or retiring it; one younger than this may still be being made by another instance.
 */
const ORPHAN_AGE_MS = 10 * 60_000;
const RECHECK_MS = 30_000;
/** Claims lost to another instance before the create takes the cold path. */
const CLAIM_TRIES = 3;

export interface WarmPoolOptions {
  size: number;
  /**
   * How often to ask the driver again whether this machine takes spares (`sparesUnavailable`: a
   * swarm node relabelled); default RECHECK_MS.
   */
  recheckMs?: number;
  db: Db;
  driver: WorkspaceDriver;
  image: string;
  log: (line: string) => void;
  newId(): string;
  /** Starts the spare's daemon and resolves once it answers, so a claim answers at once. */
  connect(id: string): Promise<void>;
  /** Forgets the daemon of a spare that is being removed. */
  disconnect(id: string): void;
  /** True while people wait on the engine (a create, start or stop in progress): the pool waits. */
  engineBusy(): boolean;
}

/** A new workspace's row without its id: the claim gives it the spare's. */
export type NewWorkspaceRow = Omit<WorkspaceTable, "id" | "idle_stopped_at" | "last_used_at" | "transient">;

/**
 * Spare workspaces made ahead, so `workspace.create` can hand one over at once. A spare is a
 * workspace like any other (the driver's same spec, volumes and daemon), marked as a spare and
 * listed in the `warm_pool` table once its daemon answers. Claiming deletes its pool row and inserts
 * the workspace row with its id in one transaction, so of two creates (in this process or another
 * instance on the same database) only one gets it; retiring deletes the row the same way first.
 * The pool refills one spare at a time, only while no create or start is under way, and retires
 * spares whose fingerprint (image, hardening) is no longer the driver's. On a swarm the fingerprint
 * names the instance's node, where its spares are made: each node's instances keep and claim their
 * own node's spares, and a claimed one runs where its claimer's engine reaches it.
 */
export class WarmPool {
  private readonly fingerprint: string;
  /** The configured size, or 0 while the driver says this instance can make no spares. */
  private size: number;
  /** Asks the driver again, now and then, whether this machine takes spares. */
  private recheck: NodeJS.Timeout | undefined;
  private readonly stopping = new AbortController();
  private working: Promise<void> | undefined;
  private failures = 0;
  /** Listed spares to retire (their rows are deleted first, unless a claim won them). */
  private readonly retiring: string[] = [];
  /** Spare containers without a row in either table: nothing can claim them. */
  private readonly leftovers: string[] = [];

  constructor(private readonly opts: WarmPoolOptions) {
    this.fingerprint = opts.driver.fingerprint(opts.image);
    this.size = opts.size;
  }

  /**
   * Finds the spares an earlier run (or another instance) made: current ones are connected, the
   * others (older image or hardening, stopped, more than the pool's size, leftovers of a crash) are
   * removed in the background. Then fills the pool, unless the driver says this instance can make
   * no spares (its machine of a swarm takes no workspaces): it then keeps none, and asks again
   * every `recheckMs`.
   */
  async init(): Promise<void> {
    const { db, driver } = this.opts;
    await this.checkMachine();
    if (this.opts.size > 0 && driver.sparesUnavailable) this.checkMachineLater();
    // Rows first: a spare's container exists before its row, so a row whose container is missing
    // from the later list is really gone.
    const pooled = new Map((await db.selectFrom("warm_pool").selectAll().execute()).map((r) => [r.id, r]));
    const spares = await driver.listSpares();
    const ids = spares.map((s) => s.id);
    const claimed = new Set(
      ids.length
        ? (await db.selectFrom("workspaces").select("id").where("id", "in", ids).execute()).map((r) => r.id)
        : [],
    );
    let kept = 0;
    for (const spare of spares) {
      if (claimed.has(spare.id)) continue;
      const row = pooled.get(spare.id);
      if (!row) {
        if (Date.now() - spare.createdAt.getTime() > ORPHAN_AGE_MS) this.leftovers.push(spare.id);
      } else if (row.fingerprint !== this.fingerprint || spare.state !== "running" || kept >= this.size) {
        this.retireLater([spare.id]);
      } else {
        kept++;
        this.opts.connect(spare.id).catch(() => {
          this.retireLater([spare.id]);
          this.refill();
        });
      }
    }
    // Rows whose container is gone (removed by hand, or with its engine). A driver whose spares are
    // per machine listed this one's only: the others' are asked for among all workspaces.
    const listed = new Set(ids);
    const unlisted = [...pooled.keys()].filter((id) => !listed.has(id));
    const anywhere = unlisted.length ? new Set((await driver.list()).map((w) => w.id)) : listed;
    const gone = unlisted.filter((id) => !anywhere.has(id));
    if (gone.length) await db.deleteFrom("warm_pool").where("id", "in", gone).execute();
    await this.logCount();
    this.refill();
  }

  /**
   * Makes a ready spare the workspace `row` describes and returns its id, or undefined when none is
   * left (the caller takes the cold path). The pool refills behind it.
   */
  async claim(row: NewWorkspaceRow): Promise<string | undefined> {
    if (this.size === 0) return undefined;
    try {
      for (let i = 0; i < CLAIM_TRIES; i++) {
        const result = await this.opts.db.transaction().execute(async (trx) => {
          const spare = await trx
            .selectFrom("warm_pool")
            .select("id")
            .where("fingerprint", "=", this.fingerprint)
            .orderBy("created_at")
            .limit(1)
            .executeTakeFirst();
          if (!spare) return "empty" as const;
          // Of two transactions that picked the same spare, only one deletes its row.
          const taken = await trx.deleteFrom("warm_pool").where("id", "=", spare.id).executeTakeFirst();
          if (Number(taken.numDeletedRows) !== 1) return "lost" as const;
          await trx
            .insertInto("workspaces")
            .values({ ...row, id: spare.id })
            .execute();
          return spare.id;
        });
        if (result === "empty") return undefined;
        if (result !== "lost") {
          await this.logCount();
          return result;
        }
      }
      return undefined;
    } finally {
      this.refill();
    }
  }

  /** Spares ready to be claimed now. */
  async count(): Promise<number> {
    const { n } = await this.opts.db
      .selectFrom("warm_pool")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("fingerprint", "=", this.fingerprint)
      .executeTakeFirstOrThrow();
    return Number(n);
  }

  private checkMachineLater(): void {
    this.recheck = setTimeout(() => {
      this.checkMachine()
        .then(
          () => this.refill(),
          (err: Error) => this.opts.log(`warm pool: ${err.message}`),
        )
        .finally(() => {
          if (!this.stopping.signal.aborted) this.checkMachineLater();
        });
    }, this.opts.recheckMs ?? RECHECK_MS);
    this.recheck.unref();
  }

  /**
   * Whether this machine takes spares, as the driver says (a machine of a swarm that does not meet
   * the constraints: none). Said in the log when it changes. Once it takes none, the spares it
   * listed are retired: a claim hands out none of them, and they would run where no workspace may.
   * Not knowing (the engine did not answer) changes nothing: a spare it cannot place fails alone.
   */
  private async checkMachine(): Promise<void> {
    if (this.opts.size === 0 || !this.opts.driver.sparesUnavailable) return;
    let unavailable: string | undefined;
    try {
      unavailable = await this.opts.driver.sparesUnavailable();
    } catch (err) {
      this.opts.log(`warm pool: could not tell whether this machine takes spares: ${(err as Error).message}`);
      return;
    }
    if (unavailable && this.size > 0) {
      this.size = 0;
      this.opts.log(`warm pool: this instance makes no spare workspaces: ${unavailable}`);
      const listed = await this.opts.db
        .selectFrom("warm_pool")
        .select("id")
        .where("fingerprint", "=", this.fingerprint)
        .execute();
      this.retireLater(listed.map((r) => r.id));
    } else if (!unavailable && this.size === 0) {
      this.size = this.opts.size;
      this.opts.log("warm pool: this machine takes spare workspaces again");
    }
  }

  /** Queues listed spares to be retired in the background, each once. */
  private retireLater(ids: string[]): void {
    for (const id of ids) if (!this.retiring.includes(id)) this.retiring.push(id);
  }

  /** Stops refilling; resolves once a spare being made is finished (so it is not left half made). */
  async close(): Promise<void> {
    clearTimeout(this.recheck);
    this.stopping.abort();
    await this.working;
  }

  /** Starts the background filler unless it runs already: one spare at a time. */
  private refill(): void {
    const work = this.size > 0 || this.retiring.length > 0 || this.leftovers.length > 0;
    if (!work || this.working || this.stopping.signal.aborted) return;
    this.working = this.fill()
      .catch((err: Error) => this.opts.log(`warm pool: ${err.message}`))
      .finally(() => {
        this.working = undefined;
      });
  }

  private async fill(): Promise<void> {
    for (;;) {
      if (!(await this.quiet())) return;
      const old = this.retiring.shift();
      if (old) {
        await this.retire(old);
        continue;
      }
      const leftover = this.leftovers.shift();
      if (leftover) {
        await this.removeSpare(leftover);
        continue;
      }
      if ((await this.count()) >= this.size) return;
      if (await this.makeSpare()) this.failures = 0;
      else {
        this.failures++;
        const wait = Math.min(BACKOFF_MS * 2 ** (this.failures - 1), BACKOFF_MAX_MS);
        if (!(await this.sleep(wait))) return;
      }
    }
  }

  /** Makes one spare and lists it once its daemon answers; false (and nothing left) on failure. */
  private async makeSpare(): Promise<boolean> {
    const { driver, image } = this.opts;
    const id = this.opts.newId();
    try {
      await driver.create({ id, image, egress: false, spare: true });
      await driver.start(id);
      await this.opts.connect(id);
      await this.opts.db
        .insertInto("warm_pool")
        .values({ id, fingerprint: this.fingerprint, created_at: new Date().toISOString() })
        .execute();
    } catch (err) {
      this.opts.log(`warm pool: could not make a spare workspace: ${(err as Error).message}`);
      await this.removeSpare(id);
      return false;
    }
    await this.logCount();
    return true;
  }

  /** Removes a listed spare, unless a create claimed it first. */
  private async retire(id: string): Promise<void> {
    const taken = await this.opts.db.deleteFrom("warm_pool").where("id", "=", id).executeTakeFirst();
    if (Number(taken.numDeletedRows) === 1) await this.removeSpare(id);
  }

  private async removeSpare(id: string): Promise<void> {
    this.opts.disconnect(id);
    await this.opts.driver
      .remove(id)
      .catch((err: Error) => this.opts.log(`warm pool: could not remove spare ${id}: ${err.message}`));
  }

  /** Resolves true once the engine has had no create or start for QUIET_MS; false when closing. */
  private async quiet(): Promise<boolean> {
    let since = Date.now();
    while (Date.now() - since < QUIET_MS) {
      if (!(await this.sleep(POLL_MS))) return false;
      if (this.opts.engineBusy()) since = Date.now();
    }
    return !this.stopping.signal.aborted;
  }

  /** Waits `ms`; false when the pool was closed meanwhile. */
  private sleep(ms: number): Promise<boolean> {
    const signal = this.stopping.signal;
    return new Promise((resolve) => {
      if (signal.aborted) return resolve(false);
      const timer = setTimeout(() => {
        signal.removeEventListener("abort", stop);
        resolve(true);
      }, ms);
      const stop = () => {
        clearTimeout(timer);
        resolve(false);
      };
      signal.addEventListener("abort", stop, { once: true });
    });
  }

  private async logCount(): Promise<void> {
    this.opts.log(`warm pool: ${await this.count()} of ${this.size} ready`);
  }
}

import type { Redis } from "ioredis";

/** A lease lasts this long unless its holder renews it… */
export const LEASE_MS = 3000;
/** …which it does this often; the others try to take a lapsed lease as often. */
const RENEW_MS = 1000;

/** Renews the lease (and keeps the document's shared rest alive) only while `token` still holds it. */
const RENEW = `
if redis.call("GET", KEYS[1]) == ARGV[1] then
  redis.call("PEXPIRE", KEYS[1], ARGV[2])
  if ARGV[3] ~= "0" then redis.call("PEXPIRE", KEYS[2], ARGV[3]) end
  return 1
end
return 0`;

/** Lets go of the lease only when `token` still holds it (a lapsed lease may be someone else's now). */
const RELEASE = `
if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end
return 0`;

export interface LeaseKeys {
  /** The lease itself: the holder's token, with an expiry. */
  lease: string;
  /** A counter every new holder draws its fencing number from. */
  fence: string;
  /** A key the holder keeps alive with its lease (the document's shared rest). */
  keepAlive: string;
}

export interface LeaseEvents {
  /** This instance holds the lease now (it lapsed or was let go elsewhere). */
  gained(): void;
  /** This instance no longer holds it (it could not renew in time). */
  lost(): void;
  log(line: string): void;
}

/**
 * Which one of the service instances writes a live document back and merges its disk: a Redis key
 * set with NX and an expiry, renewed by its holder, taken over by another instance once it lapses
 * (its holder died or lost Redis). The holder counts itself the writer only until its last
 * successful renewal plus the lease's time, by its own clock, so it stops before anyone else can
 * start. The token carries a fencing number from a shared counter; what fences the disk itself is
 * the daemon's compare-and-swap of every write against the text the writer last saw there.
 */
export class WriterLease {
  private token: string | undefined;
  private validUntil = 0;
  private timer: NodeJS.Timeout | undefined;
  private failing = false;
  private closed = false;

  constructor(
    private readonly redis: Redis,
    private readonly keys: LeaseKeys,
    private readonly owner: string,
    private readonly keepAliveMs: number,
    private readonly events: LeaseEvents,
  ) {}

  /** Whether this instance may write now. */
  get held(): boolean {
    return this.token !== undefined && Date.now() < this.validUntil;
  }

  /** Takes the lease if nobody holds it; true when this instance holds it now. */
  async claim(): Promise<boolean> {
    if (this.held) return true;
    const fence = await this.redis.incr(this.keys.fence);
    const token = `${this.owner}:${fence}`;
    const started = Date.now();
    if ((await this.redis.set(this.keys.lease, token, "PX", LEASE_MS, "NX")) !== "OK") return false;
    this.token = token;
    this.validUntil = started + LEASE_MS;
    return true;
  }

  /** Asks Redis whether the lease is still this instance's (before acting on what the disk says). */
  async confirm(): Promise<boolean> {
    if (!this.held) return false;
    try {
      return (await this.redis.get(this.keys.lease)) === this.token;
    } catch {
      return false;
    }
  }

  /** Renews while held, tries to take it while not, every RENEW_MS, until `release`. */
  follow(): void {
    if (this.closed || this.timer) return;
    this.timer = setInterval(() => void this.tick(), RENEW_MS);
    this.timer.unref();
  }

  /** Stops following and lets the lease go at once, so another instance takes over. */
  async release(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    const token = this.token;
    this.token = undefined;
    if (token) await this.redis.eval(RELEASE, 1, this.keys.lease, token).catch(() => undefined);
  }

  private async tick(): Promise<void> {
    try {
      if (this.token) await this.renew(this.token);
      else if (await this.claim()) this.events.gained();
      this.failing = false;
    } catch (error) {
      if (!this.failing) this.events.log(`collab: the writer lease: ${(error as Error).message}`);
      this.failing = true;
      if (this.token && !this.held) this.lose();
    }
  }

  private async renew(token: string): Promise<void> {
    const started = Date.now();
    const renewed = await this.redis.eval(
      RENEW,
      2,
      this.keys.lease,
      this.keys.keepAlive,
      token,
      String(LEASE_MS),
      String(this.keepAliveMs),
    );
    if (this.closed || this.token !== token) return;
    if (renewed === 1) this.validUntil = started + LEASE_MS;
    else this.lose();
  }

  private lose(): void {
    this.token = undefined;
    this.events.lost();
  }
}

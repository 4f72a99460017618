import { setTimeout as sleep } from "node:timers/promises";
import ipaddr from "ipaddr.js";
import { FORGET_FAILURES_MS } from "../auth/sign-in-failures";
import { ServiceError } from "../errors/service-error";

/** The most client addresses remembered; the oldest idle one is forgotten first. */
const MAX_ADDRESSES = 10_000;
/** A failure this long ago no longer counts against its address. */
const FORGET_MS = FORGET_FAILURES_MS;
const FIRST_DELAY_MS = 250;
const MAX_DELAY_MS = 8_000;
/** Wrong guesses everyone together may make without being slowed, and how fast that allowance refills. */
const GLOBAL_FREE_FAILURES = 20;
const GLOBAL_REFILL_PER_MS = 20 / 60_000;
/** Past the allowance every wrong answer waits at least this long, doubling with each further ten. */
const GLOBAL_FIRST_DELAY_MS = 1_000;
const GLOBAL_DOUBLING = 10;
/** Guesses that may wait for their turn: from one address, and from everyone. */
const MAX_WAITING_PER_ADDRESS = 64;
const MAX_WAITING = 2_048;

/** What a refusal says when too many guesses wait: from one client (key), and from everyone. */
export interface WaitingRefusals {
  oneClient: string;
  everyone: string;
}

const LINK_CHECKS: WaitingRefusals = {
  oneClient: "too many link checks from your address are waiting for an answer; wait for them first",
  everyone: "too many link checks are waiting for an answer right now; try again in a minute",
};

export class TooManyGuessesError extends ServiceError {
  constructor(message: string) {
    super("too_many", message);
  }
}

interface AddressState {
  failures: number;
  lastFailure: number;
  /** Settles when the address's latest guess has been answered: the next one waits for it. */
  turn: Promise<void>;
  waiting: number;
}

/** Failures counted beyond this instance (the database): `fail` answers how many count against the key. */
export interface SharedFailureCount {
  fail(key: string, now: number): Promise<number>;
}

export interface BackoffClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const realClock: BackoffClock = {
  now: Date.now,
  sleep: async (ms) => {
    await sleep(ms);
  },
};

/**
 * The client a guess counts against: an IPv4 address (also when written IPv4-mapped), or an IPv6
 * address's /64 network, which one host commonly holds whole.
 */
export function clientKey(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === "ipv4") return parsed.toString();
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${parsed.toString()}/64`).toString()}/64`;
}

/**
 * Slows down guessing share-link secrets. The secret is 256 random bits and names no link (the
 * link is found by its hash), so there is no per-link target to count against: failures count per
 * client address and for everyone together.
 * - A client's guesses are answered one at a time, in order: the next is looked up only after the
 *   previous one's answer went out, so parallel guesses gain nothing.
 * - Each wrong answer to a client is held back, doubling with each failure of that client (250 ms
 *   up to 8 s, forgotten 15 minutes after the last), and for everyone once more than a small
 *   allowance of failures a minute is used up, however many addresses they come from.
 * - A right secret is answered at once (only the failures are held) and resets nothing: a valid
 *   link a guesser holds cannot buy back their allowance.
 * In memory and bounded: the addresses remembered and the guesses waiting are capped.
 * Password sign-ins use two more instances (password-routes.ts): one keyed by the client address,
 * one by the e-mail address tried (a key that is no IP address is taken as it is), whose failures
 * every instance counts together in the database (`SharedFailureCount`).
 */
export class FailureBackoff {
  private readonly addresses = new Map<string, AddressState>();
  private globalLevel = 0;
  private globalAt = 0;
  private waiting = 0;

  constructor(
    private readonly clock: BackoffClock = realClock,
    private readonly refusals: WaitingRefusals = LINK_CHECKS,
    /** When given, a key's failures are counted there (by every instance) instead of in memory. */
    private readonly shared?: SharedFailureCount,
  ) {}

  /**
   * Looks a guess from `address` up in its turn; a null answer (wrong secret) is returned only
   * after its delay. `gone` tells whether the asker left while waiting: then nothing is looked up.
   * Throws `TooManyGuessesError` when too many guesses already wait.
   */
  async run<T>(address: string, lookup: () => Promise<T | null>, gone: () => boolean = () => false) {
    const key = clientKey(address);
    const state = this.state(key);
    if (state.waiting >= MAX_WAITING_PER_ADDRESS) throw new TooManyGuessesError(this.refusals.oneClient);
    if (this.waiting >= MAX_WAITING) throw new TooManyGuessesError(this.refusals.everyone);
    const previous = state.turn;
    let done = () => {};
    state.turn = new Promise<void>((resolve) => {
      done = resolve;
    });
    state.waiting++;
    this.waiting++;
    try {
      await previous;
      if (gone()) return null;
      const found = await lookup();
      if (found === null) await this.clock.sleep(await this.fail(key, state));
      return found;
    } finally {
      state.waiting--;
      this.waiting--;
      done();
    }
  }

  /** Counts a failure of one client and of everyone; how long its answer is held (ms). */
  private async fail(key: string, state: AddressState): Promise<number> {
    const now = this.clock.now();
    if (this.shared) {
      state.failures = await this.shared.fail(key, now);
    } else {
      state.failures = now - state.lastFailure > FORGET_MS ? 1 : state.failures + 1;
    }
    state.lastFailure = now;
    this.globalLevel = Math.max(0, this.globalLevel - (now - this.globalAt) * GLOBAL_REFILL_PER_MS) + 1;
    this.globalAt = now;
    const own = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** (state.failures - 1));
    const excess = this.globalLevel - GLOBAL_FREE_FAILURES;
    const global =
      excess <= 0
        ? 0
        : Math.min(MAX_DELAY_MS, GLOBAL_FIRST_DELAY_MS * 2 ** Math.floor((excess - 1) / GLOBAL_DOUBLING));
    return Math.max(own, global);
  }

  private state(key: string): AddressState {
    const known = this.addresses.get(key);
    if (known) {
      // Re-inserting keeps the map in order of use: its first idle key is the one to forget.
      this.addresses.delete(key);
      this.addresses.set(key, known);
      return known;
    }
    const fresh: AddressState = { failures: 0, lastFailure: 0, turn: Promise.resolve(), waiting: 0 };
    this.addresses.set(key, fresh);
    if (this.addresses.size > MAX_ADDRESSES) {
      for (const [old, state] of this.addresses) {
        if (state.waiting > 0) continue;
        this.addresses.delete(old);
        break;
      }
    }
    return fresh;
  }
}

import type { Redis } from "ioredis";
import { baselineTextOf } from "./disk-merge";
import { type DocumentRest, MAX_REST_MS, type WorkspaceRests } from "./resting-documents";

/**
 * Which shared state a new writer continues: the one whose baseline is what the disk holds (the
 * last writer's announced write landed, or it did not), else the last kept one (the disk changed
 * since: the merge takes it from there).
 */
export function continuingFrom(
  candidates: readonly DocumentRest[],
  diskText: string | undefined,
): DocumentRest | undefined {
  return (
    candidates.find((rest) => baselineTextOf(rest.merge) === diskText) ?? candidates[candidates.length - 1]
  );
}

/** `[epoch length: u8][epoch][live length: u32][live][base]`: one Redis value per document. */
function encodeRest(rest: DocumentRest): Buffer {
  const epoch = Buffer.from(rest.epoch, "utf8");
  const head = Buffer.alloc(5 + epoch.length);
  head.writeUInt8(epoch.length, 0);
  epoch.copy(head, 1);
  head.writeUInt32BE(rest.merge.live.byteLength, 1 + epoch.length);
  return Buffer.concat([head, rest.merge.live, rest.merge.base]);
}

function decodeRest(value: Buffer): DocumentRest | undefined {
  if (value.length < 5) return undefined;
  const epochLength = value.readUInt8(0);
  const liveStart = 5 + epochLength;
  if (value.length < liveStart) return undefined;
  const liveLength = value.readUInt32BE(1 + epochLength);
  if (value.length < liveStart + liveLength) return undefined;
  return {
    epoch: value.toString("utf8", 1, 1 + epochLength),
    merge: {
      live: new Uint8Array(value.subarray(liveStart, liveStart + liveLength)),
      base: new Uint8Array(value.subarray(liveStart + liveLength)),
    },
  };
}

/**
 * A workspace's documents as the instances share them in Redis: the epoch of the current (or last)
 * load and its Yjs state with the baseline. Every instance that loads a document continues this
 * state, so all of them hold one history (loading the file's text anew on each instance would
 * double it once their updates meet), and an editor's copy reconnecting through any instance is
 * recognised by the epoch. Written by the document's writer only (WriterLease); it stays for
 * MAX_REST_MS after the last write or renewal, so a copy offline that long still syncs back.
 */
export class SharedRests implements WorkspaceRests {
  constructor(
    private readonly redis: Redis,
    private readonly keyOf: (name: string) => string,
    /** Where the writer announces a write-back before it makes it (`announce`). */
    private readonly announcedKeyOf: (name: string) => string,
  ) {}

  /**
   * The state a write-back will leave, shared before the write: a writer killed after its write
   * and before `keep` leaves its successor the baseline the disk holds.
   */
  async announce(name: string, rest: DocumentRest): Promise<void> {
    await this.redis.set(this.announcedKeyOf(name), encodeRest(rest), "PX", MAX_REST_MS);
  }

  /** The states a takeover may continue: the announced write's, then the last kept one. */
  async candidates(name: string): Promise<DocumentRest[]> {
    const values = await this.redis.mgetBuffer(this.announcedKeyOf(name), this.keyOf(name));
    return values.flatMap((value) => {
      const rest = value ? decodeRest(value) : undefined;
      return rest ? [rest] : [];
    });
  }

  async keep(name: string, rest: DocumentRest): Promise<void> {
    await this.redis.set(this.keyOf(name), encodeRest(rest), "PX", MAX_REST_MS);
  }

  /** The shared state of `name`; it stays for the other instances (unlike a local rest). */
  async take(name: string): Promise<DocumentRest | undefined> {
    const value = await this.redis.getBuffer(this.keyOf(name));
    return value ? decodeRest(value) : undefined;
  }

  async epochOf(name: string): Promise<string | undefined> {
    // Only the epoch's bytes: a megabyte state need not cross the network to compare 12 characters.
    const head = await this.redis.getrangeBuffer(this.keyOf(name), 0, 64);
    return head.length > 0 ? decodeEpoch(head) : undefined;
  }
}

function decodeEpoch(head: Buffer): string | undefined {
  const length = head.readUInt8(0);
  return head.length >= 1 + length ? head.toString("utf8", 1, 1 + length) : undefined;
}

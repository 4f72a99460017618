import * as Y from "yjs";

/**
 * What makes a Yjs update expensive to integrate, read without integrating it (linear in its size).
 * Integration is quadratic in items that must be ordered against each other: items inserted at
 * one place (the same left neighbour, their origin) are each compared with every item already
 * between that neighbour and the next, and an update made of many clients' one-character items
 * builds long runs that such comparisons walk.
 */
export interface UpdateShape {
  /** Structs: runs of items from one client, and gaps. */
  structs: number;
  /** Distinct client ids among them. */
  clients: number;
  /** Deleted ranges. */
  deletions: number;
  /** The most items that share one origin. */
  crowdedOrigin: number;
  /** Items sharing their origin with another item of the update: insertions that conflict. */
  conflicting: number;
  /** Items placed right after another client's item of the same update: clients typing in turns. */
  interleaved: number;
}

/** The update's shape, or null when it is not a Yjs update (v1, the encoding y-protocols sync uses). */
export function inspectUpdate(update: Uint8Array): UpdateShape | null {
  let decoded: ReturnType<typeof Y.decodeUpdate>;
  try {
    decoded = Y.decodeUpdate(update);
  } catch {
    return null;
  }
  /** Each client's clocks in the update, from the first to past the last. */
  const clocks = new Map<number, { from: number; to: number }>();
  for (const { id, length } of decoded.structs) {
    const range = clocks.get(id.client);
    if (range) range.to = Math.max(range.to, id.clock + length);
    else clocks.set(id.client, { from: id.clock, to: id.clock + length });
  }
  const byOrigin = new Map<string, number>();
  let interleaved = 0;
  for (const struct of decoded.structs) {
    if (!(struct instanceof Y.Item)) continue;
    const origin = struct.origin;
    const range = origin && origin.client !== struct.id.client ? clocks.get(origin.client) : undefined;
    if (origin && range && origin.clock >= range.from && origin.clock < range.to) interleaved++;
    // Items without a left neighbour all start at the beginning of their parent: one place.
    const key = origin ? `${origin.client}:${origin.clock}` : "start";
    byOrigin.set(key, (byOrigin.get(key) ?? 0) + 1);
  }
  let crowdedOrigin = 0;
  let conflicting = 0;
  for (const count of byOrigin.values()) {
    crowdedOrigin = Math.max(crowdedOrigin, count);
    if (count > 1) conflicting += count;
  }
  let deletions = 0;
  for (const ranges of decoded.ds.clients.values()) deletions += ranges.length;
  return {
    structs: decoded.structs.length,
    clients: clocks.size,
    deletions,
    crowdedOrigin,
    conflicting,
    interleaved,
  };
}

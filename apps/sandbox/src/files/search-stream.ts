import { randomUUID } from "node:crypto";
import {
  type FileMatches,
  MAX_SEARCH_MATCHES,
  type SearchEvent,
  type SearchSummary,
  type TextQuery,
} from "@coder/protocol";
import { DaemonCallError, DaemonUnavailableError } from "../daemon/daemon-connection";
import type { DaemonPool, SearchMatchesBatch } from "../daemon/daemon-pool";

/** At most `budget` matches of `files`, in order. */
function firstMatches(files: FileMatches[], budget: number): FileMatches[] {
  const kept: FileMatches[] = [];
  for (const file of files) {
    if (budget <= 0) break;
    const matches = file.matches.slice(0, budget);
    budget -= matches.length;
    kept.push({ path: file.path, matches });
  }
  return kept;
}

const count = (files: FileMatches[]) => files.reduce((n, f) => n + f.matches.length, 0);

/**
 * Runs a find-in-files in the workspace's daemon and yields its matches as they arrive, then a
 * `done` summary. The daemon's batches are checked against the contract (DaemonConnection) and counted here:
 * past MAX_SEARCH_MATCHES the search is stopped and marked truncated, whatever the daemon says,
 * so a hostile daemon cannot make the service hold or send more.
 */
export async function* streamSearch(
  daemons: DaemonPool,
  workspaceId: string,
  query: TextQuery,
  signal: AbortSignal | undefined,
): AsyncGenerator<SearchEvent> {
  const daemon = await daemons.running(workspaceId);
  const searchId = randomUUID();
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  signal?.addEventListener("abort", onAbort, { once: true });

  const queue: FileMatches[][] = [];
  const paths = new Set<string>();
  let received = 0;
  let cut = false;
  let malformed = false;
  let wake: (() => void) | undefined;
  const onBatch = (batch: SearchMatchesBatch) => {
    if (stop.signal.aborted) return;
    if (!Array.isArray(batch)) {
      malformed = true;
      stop.abort();
    } else {
      const kept = firstMatches(batch, MAX_SEARCH_MATCHES - received);
      received += count(kept);
      for (const file of kept) paths.add(file.path);
      if (kept.length > 0) queue.push(kept);
      if (received >= MAX_SEARCH_MATCHES && count(batch) > count(kept)) {
        cut = true;
        stop.abort();
      }
    }
    wake?.();
  };
  const stopListening = daemons.onSearchMatches(workspaceId, searchId, onBatch);
  type Outcome = { summary: SearchSummary } | { error: unknown };
  let outcome: Outcome | undefined;
  const answer = daemon
    .request("search.text", { searchId, query, maxMatches: MAX_SEARCH_MATCHES }, stop.signal)
    .then(
      (summary): Outcome => ({ summary }),
      (error: unknown): Outcome => ({ error }),
    )
    .then((settled) => {
      outcome = settled;
      wake?.();
    });
  try {
    for (;;) {
      const files = queue.shift();
      if (files) {
        yield { type: "matches", files };
        continue;
      }
      if (outcome || signal?.aborted) break;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
      wake = undefined;
    }
    if (signal?.aborted) return;
    // DaemonConnection refused the batch and logged it; results without it would mislead.
    if (malformed) throw new DaemonUnavailableError("the workspace daemon sent malformed search results");
    const found = { matchCount: received, fileCount: paths.size };
    // Stopped by us at the cap, the daemon's answer is a cancellation: expected.
    if (outcome && "error" in outcome && !cut) {
      const { error } = outcome;
      if (!(error instanceof DaemonCallError && error.kind === "bad_request")) throw error;
      yield { type: "done", ...found, truncated: false, error: error.message };
      return;
    }
    const truncated = cut || (outcome && "summary" in outcome && outcome.summary.truncated) || false;
    yield { type: "done", ...found, truncated };
  } finally {
    stopListening();
    stop.abort();
    signal?.removeEventListener("abort", onAbort);
    // The daemon answers the cancelled request soon; nothing waits for it.
    void answer;
  }
}

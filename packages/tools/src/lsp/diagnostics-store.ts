import type { Diagnostic } from "./types";

interface Entry {
  /** The document version the latest sync sent; a report for an older version is stale. */
  version?: number;
  diagnostics: Diagnostic[];
  /** A report arrived after the latest sync, so it describes the text as it is now. */
  fresh: boolean;
}

export interface DiagnosticsReport {
  diagnostics: Diagnostic[];
  /** False when the wait ran out before the server reported on the current text. */
  fresh: boolean;
}

/**
 * What the server published per document (`textDocument/publishDiagnostics`), and waiting for a
 * report on the text last sent. Servers report after a debounce, so a change makes the old report
 * stale until the next one arrives.
 */
export class DiagnosticsStore {
  private readonly entries = new Map<string, Entry>();
  private readonly waiters = new Map<string, Set<() => void>>();

  /** The text of `uri` was just sent to the server at `version`. */
  expect(uri: string, version: number): void {
    const entry = this.entries.get(uri);
    this.entries.set(uri, { version, diagnostics: entry?.diagnostics ?? [], fresh: false });
  }

  publish(uri: string, diagnostics: Diagnostic[], version?: number): void {
    const entry = this.entries.get(uri);
    if (version !== undefined && entry?.version !== undefined && version < entry.version) return;
    this.entries.set(uri, { version: entry?.version ?? version, diagnostics, fresh: true });
    for (const wake of this.waiters.get(uri) ?? []) wake();
  }

  /** The latest report, waiting up to `timeoutMs` for one on the current text. */
  async wait(uri: string, timeoutMs: number, signal?: AbortSignal): Promise<DiagnosticsReport> {
    if (!this.entries.get(uri)?.fresh && !signal?.aborted) {
      await new Promise<void>((resolve) => {
        const waiters = this.waiters.get(uri) ?? new Set();
        this.waiters.set(uri, waiters);
        const done = () => {
          clearTimeout(timer);
          signal?.removeEventListener("abort", done);
          waiters.delete(done);
          if (waiters.size === 0) this.waiters.delete(uri);
          resolve();
        };
        const timer = setTimeout(done, timeoutMs);
        signal?.addEventListener("abort", done, { once: true });
        waiters.add(done);
      });
    }
    const entry = this.entries.get(uri);
    return { diagnostics: entry?.diagnostics ?? [], fresh: entry?.fresh ?? false };
  }
}

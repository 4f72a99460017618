import type { SnapshotPort } from "../workspace/workspace-port";

/** The tools that can change files (task and batch: through the calls they make). */
export const FILE_CHANGING_TOOLS: ReadonlySet<string> = new Set([
  "edit",
  "write",
  "patch",
  "apply_patch",
  "bash",
  "batch",
  "task",
]);

/**
 * Takes a turn's snapshots: "before" ahead of its first file-changing call, "after" when it
 * ends. A snapshot that fails costs the turn its diff and revert, never the turn itself.
 */
export class ChangeTracker {
  private before: Promise<string | undefined> | undefined;

  constructor(
    private readonly snapshots: SnapshotPort,
    private readonly log: (line: string) => void,
  ) {}

  /** Resolves once the files are recorded, if `tool` may change them and nothing is recorded yet. */
  async beforeCall(tool: string): Promise<void> {
    if (!FILE_CHANGING_TOOLS.has(tool)) return;
    this.before ??= this.take("before");
    await this.before;
  }

  /** The turn's snapshots; undefined when it ran no file-changing tool (or a snapshot failed). */
  async finish(): Promise<{ before: string; after: string } | undefined> {
    const before = await this.before;
    if (before === undefined) return undefined;
    const after = await this.take("after");
    return after === undefined ? undefined : { before, after };
  }

  private take(which: string): Promise<string | undefined> {
    return this.snapshots.take().catch((error: Error) => {
      this.log(`could not take the ${which} snapshot: ${error.message}`);
      return undefined;
    });
  }
}

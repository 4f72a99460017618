import { builtinFacts } from "@coder/tools";
import type { SnapshotPort } from "../workspace/workspace-port";

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
    // From the tool's definition; task and batch change files through the calls they make.
    if (builtinFacts(tool).changes === "none") return;
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

import type { WorkspaceService } from "./workspace-service";

/** The longest time between two looks at the running workspaces. */
const MAX_CHECK_MS = 60_000;
const MIN_CHECK_MS = 250;

/**
 * Stops workspaces that nothing has used for `idleMs` (CODER_IDLE_STOP_SECONDS): no open socket, no
 * subscription, no agent turn running, no call (see activity.ts). Their status then says they were
 * stopped for being idle, and opening one starts it again.
 */
export class IdleStopper {
  private timer: NodeJS.Timeout | undefined;
  private checking: Promise<void> | undefined;

  constructor(
    private readonly workspaces: WorkspaceService,
    private readonly idleMs: number,
    private readonly log: (line: string) => void,
  ) {}

  start(): void {
    if (this.idleMs <= 0) return;
    // A quarter of the idle time between looks: a workspace stops at most 25% late.
    const every = Math.min(MAX_CHECK_MS, Math.max(MIN_CHECK_MS, this.idleMs / 4));
    this.timer = setInterval(() => {
      this.checking ??= this.check()
        .catch((err: Error) => this.log(`idle stop: ${err.message}`))
        .finally(() => {
          this.checking = undefined;
        });
    }, every);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.checking;
  }

  private async check(): Promise<void> {
    const { activity } = this.workspaces;
    for (const workspace of await this.workspaces.list()) {
      if (workspace.status !== "running" || activity.idleMs(workspace.id) < this.idleMs) continue;
      this.log(`workspace ${workspace.id}: stopping it, unused for ${Math.round(this.idleMs / 1000)} s`);
      await this.workspaces.stop(workspace.id, { idle: true });
    }
  }
}

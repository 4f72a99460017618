import { type LspServerConfig, lspLanguageIdForPath } from "@coder/protocol";
import { LspClient } from "./client";

/** How the server stood when a call used it: already up, started for it, or started again after a crash. */
export type ServerStatus = "running" | "started" | "restarted";

export interface LspManagerOptions {
  idleTimeoutMs: number;
  requestTimeoutMs: number;
}

interface Slot {
  client?: LspClient;
  starting?: Promise<LspClient>;
  /** The last server of this slot died on its own (not stopped for idleness). */
  crashed: boolean;
  /** Calls in flight: the idle timer only runs when there are none. */
  busy: number;
  idleTimer?: NodeJS.Timeout;
}

/**
 * Language servers on demand: one per language per workspace root, started by the first call
 * that needs it, started again after a crash, and stopped after a quiet spell.
 */
export class LspManager {
  private readonly slots = new Map<string, Slot>();

  constructor(private readonly options: LspManagerOptions) {}

  /**
   * Runs `work` against the server for `server.language` in `root`. If the server dies during the
   * call, it is started again and `work` is retried once.
   */
  async use<T>(
    server: LspServerConfig,
    root: string,
    work: (client: LspClient) => Promise<T>,
  ): Promise<{ value: T; status: ServerStatus }> {
    const key = `${server.language}\0${root}\0${server.command.join("\0")}`;
    const slot = this.slots.get(key) ?? { crashed: false, busy: 0 };
    this.slots.set(key, slot);
    slot.busy++;
    clearTimeout(slot.idleTimer);
    try {
      const first = await this.acquire(slot, server, root);
      try {
        return { value: await work(first.client), status: first.status };
      } catch (error) {
        if (first.client.alive) throw error;
        const second = await this.acquire(slot, server, root);
        return { value: await work(second.client), status: "restarted" };
      }
    } finally {
      slot.busy--;
      if (slot.busy === 0) {
        slot.idleTimer = setTimeout(() => void this.stopSlot(key), this.options.idleTimeoutMs);
        slot.idleTimer.unref();
      }
    }
  }

  /** True while a server for this language and root is up (or starting). */
  isRunning(language: string, root: string): boolean {
    return [...this.slots.entries()].some(
      ([key, slot]) => key.startsWith(`${language}\0${root}\0`) && (slot.starting || slot.client?.alive),
    );
  }

  /** Stops every server (the CLI at exit, tests). */
  async stopAll(): Promise<void> {
    await Promise.all([...this.slots.keys()].map((key) => this.stopSlot(key)));
  }

  private async acquire(
    slot: Slot,
    server: LspServerConfig,
    root: string,
  ): Promise<{ client: LspClient; status: ServerStatus }> {
    if (slot.client?.alive) return { client: slot.client, status: "running" };
    const status: ServerStatus = slot.crashed ? "restarted" : "started";
    if (!slot.starting) {
      slot.starting = LspClient.start({
        command: server.command,
        root,
        languageIdOf: (file) => lspLanguageIdForPath(server, file),
        requestTimeoutMs: this.options.requestTimeoutMs,
        initializationOptions: server.initializationOptions,
      }).finally(() => {
        slot.starting = undefined;
      });
    }
    const client = await slot.starting;
    if (slot.client !== client) {
      slot.client = client;
      slot.crashed = false;
      void client.exited.then(() => {
        // Stopped on purpose, the slot has already let go of it; otherwise it crashed.
        if (slot.client === client) slot.crashed = true;
      });
    }
    return { client, status };
  }

  private async stopSlot(key: string): Promise<void> {
    const slot = this.slots.get(key);
    if (!slot) return;
    clearTimeout(slot.idleTimer);
    const client = slot.client ?? (await slot.starting?.catch(() => undefined));
    this.slots.delete(key);
    slot.client = undefined;
    await client?.stop();
  }
}

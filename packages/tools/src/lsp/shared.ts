import { LspManager } from "./manager";
import type { LspSettings } from "./settings";

/**
 * Tools are stateless definitions, so the servers they share live here: one manager per distinct
 * set of timing settings (in practice one per process), holding one server per language and root.
 */
const managers = new Map<string, LspManager>();

export function sharedLspManager(settings: LspSettings): LspManager {
  const key = `${settings.idleTimeoutMs}/${settings.requestTimeoutMs}`;
  let manager = managers.get(key);
  if (!manager) {
    manager = new LspManager({
      idleTimeoutMs: settings.idleTimeoutMs,
      requestTimeoutMs: settings.requestTimeoutMs,
    });
    managers.set(key, manager);
  }
  return manager;
}

/** Stops every language server the tools started (the CLI before it exits, tests after them). */
export async function stopLspServers(): Promise<void> {
  await Promise.all([...managers.values()].map((m) => m.stopAll()));
}

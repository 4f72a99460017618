// Types for node-modules.mjs.
export function installState(root?: string): Promise<"missing" | "stale" | "current">;
export function ensureNodeModules(root?: string): Promise<void>;

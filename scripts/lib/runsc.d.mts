// Types for runsc.mjs.
export const RUNSC_RUNTIME: { path: string; runtimeArgs: string[] };
export function withRunscRuntime(daemonJson: string): string | null;
export function ensureRunsc(): Promise<void>;

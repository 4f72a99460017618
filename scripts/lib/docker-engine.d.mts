// Types for docker-engine.mjs.
export const DOCKERD_LOG: string;
export function probeEngine(
  env?: NodeJS.ProcessEnv,
): Promise<
  { ok: true; version: string; reason?: undefined } | { ok: false; reason: string; version?: undefined }
>;
export function noDockerMessage(reason: string, dockerHost?: string): string;
export function ensureDocker(): Promise<void>;
export function startDockerd(): Promise<string>;
export function waitForEngine(stoppedReason?: () => string | null, timeoutMs?: number): Promise<string>;

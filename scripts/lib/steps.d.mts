// Types for steps.mjs.
export class SetupError extends Error {}
export function info(message: string): void;
export function formatDuration(ms: number): string;
export function step<T>(title: string, fn: () => Promise<T> | T): Promise<T>;
export function runScript(main: () => Promise<number | undefined>): void;

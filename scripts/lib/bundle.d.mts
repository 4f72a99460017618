// Types for bundle.mjs.
export const DAEMON_ENTRY: string;
export const SANDBOX_ENTRY: string;
export const SANDBOX_BUNDLE: string;
export function bundleDaemon(options: { entry?: string; outfile: string }): Promise<void>;
export function bundleSandbox(options?: { entry?: string; outfile?: string }): Promise<void>;

// Types for bundle.mjs.
export const DAEMON_ENTRY: string;
export const SANDBOX_ENTRY: string;
export const SANDBOX_BUNDLE: string;
export const SANDBOX_WORKERS: string[];
export function bundleDaemon(options: { entry?: string; outfile: string }): Promise<void>;
export function bundleSandbox(options?: {
  entry?: string;
  outfile?: string;
  workers?: string[];
}): Promise<void>;

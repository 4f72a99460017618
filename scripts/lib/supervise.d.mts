// Types for supervise.mjs.
import type { EventEmitter } from "node:events";

export type SupervisedProcess = {
  name: string;
  command: string;
  args: string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
};

export function supervise(
  processes: SupervisedProcess[],
  options?: { signals?: EventEmitter | NodeJS.Process; write?: (line: string) => void },
): Promise<number>;

// Types for run.mjs.
import type { Readable } from "node:stream";
import { SetupError } from "./steps.mjs";

export class CommandError extends SetupError {
  constructor(message: string, exitCode: number);
  exitCode: number;
}

export function run(
  cmd: string,
  args: string[],
  options?: {
    cwd?: string;
    env?: NodeJS.ProcessEnv;
    prefix?: string;
    stdin?: "ignore" | "inherit" | Readable;
    inherit?: boolean;
  },
): Promise<void>;

export function capture(
  cmd: string,
  args: string[],
  options?: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<{ code: number; stdout: string; stderr: string }>;

export function findCommand(name: string): Promise<string | null>;

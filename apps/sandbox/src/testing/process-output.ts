import type { AttachedProcess } from "../driver/workspace-driver";

/** Feeds `input` (or nothing) and collects stdout and stderr until the process ends. */
export async function outputOf(process: AttachedProcess, input = ""): Promise<{ code: number; out: string }> {
  process.stdin.end(input);
  const chunks: Buffer[] = [];
  const collect = (c: Buffer) => chunks.push(c);
  process.stdout.on("data", collect);
  process.stderr.on("data", collect);
  const code = await process.exited;
  return { code: code ?? -1, out: Buffer.concat(chunks).toString() };
}

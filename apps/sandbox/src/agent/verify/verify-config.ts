import { z } from "zod";
import type { WorkspacePort } from "../workspace/workspace-port";

/** The workspace file that may name a check command. */
export const CONFIG_PATH = ".coder/config.json";
const MAX_CONFIG_BYTES = 64 * 1024;

const configFile = z.object({
  verify: z
    .object({
      command: z.string().trim().min(1),
      /** How many times the command runs for one prompt; the agent gets a failure while one is left. */
      max_attempts: z.number().int().min(1).max(10).default(2),
    })
    .optional(),
});

export type VerifyConfig = NonNullable<z.infer<typeof configFile>["verify"]>;

/** The workspace's check command, if its config names one; a file that does not parse names none. */
export async function readVerifyConfig(
  workspace: WorkspacePort,
  log: (line: string) => void,
): Promise<VerifyConfig | undefined> {
  const text = await workspace.readText(CONFIG_PATH, MAX_CONFIG_BYTES);
  if (text === undefined) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    log(`${CONFIG_PATH} is not JSON; auto-verify is off`);
    return undefined;
  }
  const parsed = configFile.safeParse(json);
  if (!parsed.success) {
    log(`${CONFIG_PATH}: ${parsed.error.issues.map((i) => i.message).join("; ")}; auto-verify is off`);
    return undefined;
  }
  return parsed.data.verify;
}

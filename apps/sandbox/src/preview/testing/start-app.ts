import type { AttachedProcess, WorkspaceDriver } from "../../driver/workspace-driver";
import type { TestService } from "../../testing/harness";
import { until } from "../../testing/until";
import { APP_SERVER } from "./app-server";

/** The port the preview tests' app listens on in the workspace. */
export const APP_PORT = 3000;

/**
 * Starts `script` (APP_SERVER by default) on `port` in the workspace through `driver`, and resolves
 * once the service, asked through `api`, lists the port.
 */
export async function startApp(
  api: TestService["api"],
  driver: WorkspaceDriver,
  workspace: string,
  port = APP_PORT,
  script = APP_SERVER,
): Promise<AttachedProcess> {
  const proc = await driver.exec(workspace, ["node", "-e", script, String(port)]);
  proc.stdout.resume();
  proc.stderr.resume();
  await until(
    async () => (await api.preview.list.query({ workspaceId: workspace })).ports.some((p) => p.port === port),
    "the app listens",
  );
  return proc;
}

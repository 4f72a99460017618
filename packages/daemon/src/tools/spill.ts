import { spillToFolder } from "@coder/tools";
import type { DaemonHandler } from "../rpc/dispatch";

/**
 * tools.spill: keeps the full text of an output the service cut for the model (its own tools run
 * outside the container) in the spill folder, where `read` and `grep` find it; answers the path.
 */
export const spillMethod =
  (spillDir: string): DaemonHandler<"tools.spill"> =>
  async (params) => ({ path: await spillToFolder(spillDir)(params.callId, params.content) });

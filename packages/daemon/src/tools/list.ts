import type { DaemonHandler } from "../rpc/dispatch";
import type { ToolRunner } from "./runner";

export const listMethod =
  (runner: ToolRunner): DaemonHandler<"tools.list"> =>
  async (params) => ({ tools: runner.definitions(params) });

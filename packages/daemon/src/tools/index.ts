import { type ExecuteOptions, executeMethod } from "./execute";
import { listMethod } from "./list";
import { spillMethod } from "./spill";

export type { ToolOutcome, ToolRunner } from "./runner";

/** tools.list and tools.execute over the tools registry; tools.spill into its spill folder. */
export function toolMethods(options: ExecuteOptions) {
  return {
    "tools.list": listMethod(options.runner),
    "tools.execute": executeMethod(options),
    "tools.spill": spillMethod(options.spillDir),
  };
}

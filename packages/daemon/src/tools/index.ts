import { type ExecuteOptions, executeMethod } from "./execute";
import { listMethod } from "./list";

export type { ToolOutcome, ToolRunner } from "./runner";

/** tools.list and tools.execute over the tools registry. */
export function toolMethods(options: ExecuteOptions) {
  return {
    "tools.list": listMethod(options.runner),
    "tools.execute": executeMethod(options),
  };
}

export { createDaemonServer, type DaemonServer, type DaemonServerOptions } from "./server";
export type { ToolOutcome, ToolRunner } from "./tools";

export { checkServers, type ServerCheck } from "./check";
export type { LspToolsConfig } from "./settings";
export { stopLspServers } from "./shared";

// First: configures zod before any schema below is built.
import "./jitless";

export * from "./access-close";
export * from "./api-limits";
export * from "./audit";
export * from "./collab";
export * from "./container-layout";
export * from "./credential-host";
export * from "./daemon";
export * from "./daemon-requests";
export * from "./files";
export * from "./git";
export * from "./git-index-text";
export * from "./import";
export * from "./lsp";
export * from "./presence";
export * from "./preview";
export * from "./search";
export * from "./session";
export * from "./talk";
export * from "./tar";
export * from "./terminal";
export * from "./tools";
export * from "./wire";
export * from "./workspace";

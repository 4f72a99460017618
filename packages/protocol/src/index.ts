export * from "./daemon";
export * from "./files";
export * from "./terminal";
export * from "./tools";
export * from "./workspace";

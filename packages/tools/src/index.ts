export * from "./framework/types";
export * from "./paths/resolve";

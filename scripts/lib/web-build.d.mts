// Types for web-build.mjs.
export function webInputsHash(root?: string): Promise<string>;
export function isWebBuildCurrent(root?: string): Promise<boolean>;
export function ensureWebBuild(root?: string): Promise<void>;

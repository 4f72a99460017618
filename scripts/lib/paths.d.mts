// Types for paths.mjs (the scripts are plain JavaScript: they run before node_modules exists).
export const repoRoot: string;
export function repoPath(...parts: string[]): string;

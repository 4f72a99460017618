// Types for compose.mjs.
export function findCompose(): Promise<string[] | null>;
export function ensureCompose(): Promise<string[]>;

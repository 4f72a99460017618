// Types for postgres.mjs.
export function findPostgresBin(): Promise<string | null>;
export function ensurePostgres(): Promise<string>;

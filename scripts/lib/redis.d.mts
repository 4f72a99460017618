// Types for redis.mjs.
export function ensureRedis(): Promise<string>;

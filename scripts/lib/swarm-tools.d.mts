// Types for swarm-tools.mjs.
export function ensureSwarmTools(): Promise<void>;

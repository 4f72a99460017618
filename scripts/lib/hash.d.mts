// Types for hash.mjs.
export function hashTree(
  base: string,
  paths: string[],
  options?: { ignore?: string[]; extra?: string[] },
): Promise<string>;

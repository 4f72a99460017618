import { readdir } from "node:fs/promises";
import path from "node:path";

/**
 * Up to `max` entries of the missing path's folder whose names look like the one asked for
 * (a typo, another extension, other case), best first. Empty when the folder itself is missing.
 */
export async function similarNames(missing: string, max = 3): Promise<string[]> {
  const folder = path.dirname(missing);
  const wanted = path.basename(missing).toLowerCase();
  let names: string[];
  try {
    names = await readdir(folder);
  } catch {
    return [];
  }
  return names
    .map((name) => ({ name, score: nameSimilarity(wanted, name.toLowerCase()) }))
    .filter((c) => c.score >= 0.5)
    .sort((a, b) => b.score - a.score || a.name.localeCompare(b.name))
    .slice(0, max)
    .map((c) => path.join(folder, c.name));
}

/** Dice coefficient over character bigrams, with a full score for the same stem. */
export function nameSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  if (stem(a) === stem(b)) return 0.95;
  const bigrams = (s: string) => {
    const counts = new Map<string, number>();
    for (let i = 0; i < s.length - 1; i++) {
      const gram = s.slice(i, i + 2);
      counts.set(gram, (counts.get(gram) ?? 0) + 1);
    }
    return counts;
  };
  const left = bigrams(a);
  const right = bigrams(b);
  let shared = 0;
  for (const [gram, count] of left) shared += Math.min(count, right.get(gram) ?? 0);
  const total = Math.max(a.length - 1, 0) + Math.max(b.length - 1, 0);
  return total === 0 ? 0 : (2 * shared) / total;
}

function stem(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(0, dot) : name;
}

// Types for lines.mjs.
import type { Readable } from "node:stream";

export function forEachLine(stream: Readable, onLine: (line: string) => void): void;

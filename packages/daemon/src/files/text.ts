/** How much of a file is searched for NUL bytes, the usual sign of a binary file. */
const SNIFF_BYTES = 8192;

/**
 * Decodes a file's bytes as UTF-8 text, or returns undefined when they are not text (a NUL byte
 * near the start, or invalid UTF-8 anywhere: showing it would corrupt the file when saved back).
 * A byte order mark is kept so that saving writes the same bytes.
 */
export function decodeText(bytes: Uint8Array): string | undefined {
  if (bytes.subarray(0, SNIFF_BYTES).includes(0)) return undefined;
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

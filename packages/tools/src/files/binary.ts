import { type FileHandle, open } from "node:fs/promises";

/** How much of a file's head is sampled to decide whether it is text. */
export const SAMPLE_BYTES = 8192;

/**
 * A sample is binary when it holds a NUL byte or when more than 30% of it is control characters
 * other than tab, newline, carriage return, form feed and escape (UTF-8 text never is).
 */
export function looksBinary(sample: Uint8Array): boolean {
  if (sample.length === 0) return false;
  let control = 0;
  for (const byte of sample) {
    if (byte === 0) return true;
    if (byte < 32 && byte !== 9 && byte !== 10 && byte !== 13 && byte !== 12 && byte !== 27) control++;
  }
  return control / sample.length > 0.3;
}

export async function isBinaryFile(absolute: string): Promise<boolean> {
  const handle = await open(absolute, "r");
  try {
    return await isBinaryHandle(handle);
  } finally {
    await handle.close();
  }
}

/** The same check on a file already open (its position is not moved). */
export async function isBinaryHandle(handle: FileHandle): Promise<boolean> {
  const buffer = Buffer.allocUnsafe(SAMPLE_BYTES);
  const { bytesRead } = await handle.read(buffer, 0, SAMPLE_BYTES, 0);
  return looksBinary(buffer.subarray(0, bytesRead));
}

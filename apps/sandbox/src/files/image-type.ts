import type { ImageMime } from "@coder/protocol";

const startsWith = (bytes: Buffer, signature: readonly number[], at = 0) =>
  signature.every((byte, i) => bytes[at + i] === byte);

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/**
 * The image type of a file, from its first bytes (never from its name alone: the browser is told
 * exactly what to decode). SVG is text, so it also needs the `.svg` name and an `<svg` element near
 * the start; it is only ever shown through `<img>`, where its scripts never run.
 */
export function imageTypeOf(path: string, bytes: Buffer): ImageMime | undefined {
  if (startsWith(bytes, [0x89, ...ascii("PNG\r\n"), 0x1a, 0x0a])) return "image/png";
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (startsWith(bytes, ascii("GIF87a")) || startsWith(bytes, ascii("GIF89a"))) return "image/gif";
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) return "image/webp";
  if (/\.svg$/i.test(path) && bytes.subarray(0, 4096).toString("utf8").includes("<svg"))
    return "image/svg+xml";
  return undefined;
}

/** A WebSocket close reason may hold at most 123 bytes of UTF-8. */
const MAX_REASON_BYTES = 123;

/** `text` cut to fit a close frame (on a character boundary, with an ellipsis when cut). */
export function closeReason(text: string): string {
  const oneLine = text.replace(/\s+/g, " ").trim();
  if (Buffer.byteLength(oneLine) <= MAX_REASON_BYTES) return oneLine;
  let cut = "";
  for (const char of oneLine) {
    if (Buffer.byteLength(`${cut}${char}…`) > MAX_REASON_BYTES) break;
    cut += char;
  }
  return `${cut}…`;
}

// Splits a byte stream into text lines, so a child's output can be prefixed line by line.

/**
 * Calls `onLine` for each complete line of `stream` (without its line ending), and once more for a
 * last unterminated line when the stream ends.
 */
export function forEachLine(stream, onLine) {
  let pending = "";
  stream.setEncoding("utf8");
  stream.on("data", (chunk) => {
    pending += chunk;
    const parts = pending.split("\n");
    pending = parts.pop() ?? "";
    for (const part of parts) onLine(part.replace(/\r$/, ""));
  });
  stream.on("end", () => {
    if (pending !== "") onLine(pending.replace(/\r$/, ""));
    pending = "";
  });
}

/** LF text as lines, with whether it ended in a line break (the last "" is not a line). */
export interface Lines {
  lines: string[];
  finalNewline: boolean;
}

export function toLines(text: string): Lines {
  if (text === "") return { lines: [], finalNewline: false };
  const finalNewline = text.endsWith("\n");
  return { lines: (finalNewline ? text.slice(0, -1) : text).split("\n"), finalNewline };
}

export function fromLines({ lines, finalNewline }: Lines): string {
  if (lines.length === 0) return "";
  return lines.join("\n") + (finalNewline ? "\n" : "");
}

/** The line ending a file uses; every tool works on LF text and writes the file's own style back. */
export type Eol = "\n" | "\r\n";

export interface DecodedText {
  /** The text with LF line endings and without a byte-order mark. */
  text: string;
  eol: Eol;
  bom: boolean;
}

const BOM = "\uFEFF";

/** Converts CRLF to LF (a lone CR is left alone: it is content, not a line ending). */
export function toLf(text: string): string {
  return text.includes("\r\n") ? text.replace(/\r\n/g, "\n") : text;
}

/**
 * Splits a file's text into LF text plus what is needed to write it back unchanged: its line-ending
 * style (CRLF when most of its line breaks are CRLF) and whether it starts with a BOM.
 */
export function decodeText(raw: string): DecodedText {
  const bom = raw.startsWith(BOM);
  const body = bom ? raw.slice(1) : raw;
  const crlf = countOf(body, "\r\n");
  const lf = countOf(body, "\n");
  const eol: Eol = crlf > 0 && crlf * 2 >= lf ? "\r\n" : "\n";
  return { text: toLf(body), eol, bom };
}

/**
 * The inverse of decodeText: LF text (or text with mixed endings) written in the given style. A BOM
 * the text already starts with counts as asked for, so it is never doubled.
 */
export function encodeText(text: string, eol: Eol, bom: boolean): string {
  const hasBom = text.startsWith(BOM);
  const lf = toLf(hasBom ? text.slice(1) : text);
  const body = eol === "\n" ? lf : lf.replace(/\n/g, "\r\n");
  return bom || hasBom ? BOM + body : body;
}

function countOf(text: string, needle: string): number {
  let count = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) count++;
  return count;
}

import type { LineMatch, TextQuery } from "@coder/protocol";
import type { ReactNode } from "react";
import { previewReplacement } from "./replace-preview";
import styles from "./search.module.css";

/** The matching line, indentation dropped, each match marked (and with its replacement, if any). */
export function MatchText({
  match,
  query,
  replacement,
}: {
  match: LineMatch;
  query: TextQuery | null;
  replacement: string | null;
}) {
  const indent = match.text.length - match.text.trimStart().length;
  const parts: ReactNode[] = [];
  let at = indent;
  for (const range of match.ranges) {
    if (range.start < at) continue;
    parts.push(match.text.slice(at, range.start));
    const matched = match.text.slice(range.start, range.end);
    if (replacement !== null && query) {
      parts.push(
        <del key={`d${range.start}`} className={styles.removed}>
          {matched}
        </del>,
        <ins key={`i${range.start}`} className={styles.inserted}>
          {previewReplacement(query, matched, replacement)}
        </ins>,
      );
    } else {
      parts.push(
        <mark key={range.start} className={styles.hit}>
          {matched}
        </mark>,
      );
    }
    at = range.end;
  }
  parts.push(match.text.slice(at));
  return <span className={styles.lineText}>{parts}</span>;
}

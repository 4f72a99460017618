import type { Diagnostic as EditorDiagnostic } from "@codemirror/lint";
import type { Text } from "@codemirror/state";
import type { Diagnostic, Position } from "vscode-languageserver-types";
import { changesBetween } from "./text-changes";

export type Severity = EditorDiagnostic["severity"];

/** One entry of the problems list. */
export interface Problem {
  path: string;
  /** 1-based, as people count lines. */
  line: number;
  column: number;
  /** Offset in the file's current text, for jumping to it. */
  offset: number;
  severity: Severity;
  message: string;
  source?: string;
}

const SEVERITIES: Record<number, Severity> = { 1: "error", 2: "warning", 3: "info", 4: "hint" };
const RANK: Record<Severity, number> = { error: 0, warning: 1, info: 2, hint: 3 };

/** The offset of an LSP position in `doc`, clamped to the text (servers may point past the end). */
export function offsetAt(doc: Text, position: Position): number {
  if (position.line >= doc.lines) return doc.length;
  const line = doc.line(Math.max(0, position.line) + 1);
  return line.from + Math.min(Math.max(0, position.character), line.length);
}

/**
 * The server's diagnostics, computed on `synced` (the text it last received), placed in the
 * file's `current` text, which may have moved on since.
 */
export function editorDiagnostics(
  diagnostics: readonly Diagnostic[],
  synced: Text,
  current: Text,
): EditorDiagnostic[] {
  const changes = changesBetween(synced, current);
  return diagnostics.map((item) => {
    const from = changes.mapPos(offsetAt(synced, item.range.start), 1);
    const to = Math.max(from, changes.mapPos(offsetAt(synced, item.range.end), -1));
    return {
      from,
      to,
      severity: SEVERITIES[item.severity ?? 1] ?? "error",
      message: typeof item.message === "string" ? item.message : item.message.value,
      ...(item.source ? { source: item.source } : {}),
    };
  });
}

/** The problems list's entries for one file, most severe first, then by place. */
export function problemsOf(path: string, diagnostics: readonly EditorDiagnostic[], doc: Text): Problem[] {
  return diagnostics
    .map((d) => {
      const line = doc.lineAt(Math.min(d.from, doc.length));
      return {
        path,
        line: line.number,
        column: d.from - line.from + 1,
        offset: d.from,
        severity: d.severity,
        message: d.message,
        ...(d.source ? { source: d.source } : {}),
      };
    })
    .sort((a, b) => RANK[a.severity] - RANK[b.severity] || a.offset - b.offset);
}

import type { Diagnostic, Range } from "../../lsp/types";

/** A diagnostic as the tool returns it: the LSP range (0-based) with the severity spelled out. */
export interface DiagnosticItem {
  range: Range;
  severity: "error" | "warning" | "information" | "hint";
  message: string;
  source?: string;
  code?: string | number;
}

const SEVERITIES = ["error", "warning", "information", "hint"] as const;

export function toItems(diagnostics: Diagnostic[]): DiagnosticItem[] {
  return diagnostics
    .map((d) => ({
      range: d.range,
      // The protocol leaves a missing severity to the client; treat it as an error, to be safe.
      severity: SEVERITIES[(d.severity ?? 1) - 1] ?? "error",
      message: d.message,
      ...(d.source ? { source: d.source } : {}),
      ...(d.code !== undefined ? { code: d.code } : {}),
    }))
    .sort(
      (a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character,
    );
}

/** `path:line:column: severity: message [source]`, 1-based like compiler output and `read`. */
export function formatItem(path: string, item: DiagnosticItem): string {
  const { line, character } = item.range.start;
  const tag = [item.source, item.code].filter((t) => t !== undefined).join(" ");
  return `${path}:${line + 1}:${character + 1}: ${item.severity}: ${item.message}${tag ? ` [${tag}]` : ""}`;
}

/** "2 problems (1 error, 1 warning)". */
export function summarize(items: DiagnosticItem[]): string {
  if (items.length === 0) return "no problems";
  const counts = SEVERITIES.map((s) => [s, items.filter((i) => i.severity === s).length] as const)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${n} ${s}${n === 1 || s === "information" ? "" : "s"}`);
  return `${items.length} problem${items.length === 1 ? "" : "s"} (${counts.join(", ")})`;
}

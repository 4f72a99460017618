/** The few LSP shapes the tools use (a subset of the protocol's types, 0-based positions). */

export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

export interface Location {
  uri: string;
  range: Range;
}

export interface LocationLink {
  originSelectionRange?: Range;
  targetUri: string;
  targetRange: Range;
  targetSelectionRange: Range;
}

export interface Diagnostic {
  range: Range;
  /** 1 error, 2 warning, 3 information, 4 hint; absent means the client decides. */
  severity?: number;
  code?: number | string;
  source?: string;
  message: string;
}

export type MarkedString = string | { language: string; value: string };

export interface MarkupContent {
  kind: string;
  value: string;
}

export interface Hover {
  contents: MarkupContent | MarkedString | MarkedString[];
  range?: Range;
}

/** Only the capabilities the client acts on. */
export interface ServerCapabilities {
  /** Present when the server answers `textDocument/diagnostic` (pull diagnostics). */
  diagnosticProvider?: unknown;
}

import type { FileText, SearchText, Span } from "../text-model";

/** The names a successful edit reports, in the order the engine tries them. */
export type StrategyName =
  | "exact"
  | "line-trimmed"
  | "block-anchor"
  | "whitespace-normalized"
  | "indentation-flexible"
  | "escape-normalized"
  | "trimmed-boundary"
  | "context-aware"
  | "multi-occurrence";

/** One way of reading old_string: it proposes spans of the file; the engine decides. */
export interface Strategy {
  readonly name: StrategyName;
  /** The spans of the file this strategy takes old_string to mean, in file order. */
  find(file: FileText, search: SearchText): Span[];
  /** new_string as it should be written over `matched`, a span this strategy found. */
  adapt?(newString: string, matched: string, search: SearchText): string;
}

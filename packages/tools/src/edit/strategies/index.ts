import { blockAnchor } from "./block-anchor";
import { contextAware } from "./context-aware";
import { escapeNormalized } from "./escape-normalized";
import { exact } from "./exact";
import { indentationFlexible } from "./indentation-flexible";
import { lineTrimmed } from "./line-trimmed";
import { multiOccurrence } from "./multi-occurrence";
import type { Strategy } from "./strategy";
import { trimmedBoundary } from "./trimmed-boundary";
import { whitespaceNormalized } from "./whitespace-normalized";

export type { Strategy, StrategyName } from "./strategy";

/** The fuzzy edit chain (spec "Fuzzy edit chain"), strictest first. */
export const STRATEGIES: readonly Strategy[] = [
  exact,
  lineTrimmed,
  blockAnchor,
  whitespaceNormalized,
  indentationFlexible,
  escapeNormalized,
  trimmedBoundary,
  contextAware,
  multiOccurrence,
];

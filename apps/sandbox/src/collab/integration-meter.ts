import type * as Y from "yjs";

/**
 * Times every transaction on `doc` (integrating an update, its observers, garbage collection) and
 * reports it with the transaction's origin: for an update from a browser, Hocuspocus's connection.
 */
export function meterTransactions(doc: Y.Doc, spent: (origin: unknown, ms: number) => void): void {
  const started = new WeakMap<Y.Transaction, number>();
  doc.on("beforeTransaction", (transaction: Y.Transaction) => {
    started.set(transaction, performance.now());
  });
  doc.on("afterTransactionCleanup", (transaction: Y.Transaction) => {
    const start = started.get(transaction);
    if (start !== undefined) spent(transaction.origin, performance.now() - start);
  });
}

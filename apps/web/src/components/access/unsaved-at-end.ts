/** An open file's text as this page had it when access ended, which the service never got. */
export interface UnsavedText {
  path: string;
  text: string;
}

/**
 * What the editor had that the service never got when access ended (the notice offers to copy
 * it). Set once, by the editor, when it turns read-only.
 */
let unsaved: readonly UnsavedText[] = [];
const listeners = new Set<() => void>();

export const unsavedAtEnd = {
  set(texts: readonly UnsavedText[]): void {
    if (texts.length === 0) return;
    unsaved = texts;
    for (const listener of listeners) listener();
  },
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  snapshot: (): readonly UnsavedText[] => unsaved,
};

/** What "Copy" puts on the clipboard: one file's text as it was, or each under its path. */
export function clipboardText(texts: readonly UnsavedText[]): string {
  if (texts.length === 1) return texts[0]?.text ?? "";
  return texts.map(({ path, text }) => `=== ${path} ===\n${text}`).join("\n");
}

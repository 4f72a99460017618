"use client";

import { useEffect, useRef, useState } from "react";
import styles from "./file-tree.module.css";
import { indent, useTree } from "./tree-context";

/** The inline field for naming a new entry or renaming one. Enter applies, Escape cancels. */
export function NameInput({ initial, depth }: { initial: string; depth: number }) {
  const tree = useTree();
  const [name, setName] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    const input = inputRef.current;
    if (!input) return;
    input.focus();
    // Select the name without its extension, as file managers do.
    const dot = initial.lastIndexOf(".");
    input.setSelectionRange(0, dot > 0 ? dot : initial.length);
  }, [initial]);

  async function submit() {
    if (busy) return;
    setBusy(true);
    const problem = await tree.submitName(name);
    setBusy(false);
    setError(problem);
  }

  return (
    <div className={styles.nameRow} style={{ paddingLeft: indent(depth) }}>
      <input
        ref={inputRef}
        type="text"
        className={styles.nameInput}
        data-testid="tree-name-input"
        value={name}
        readOnly={busy}
        aria-invalid={error !== null}
        onChange={(event) => {
          setName(event.target.value);
          setError(null);
        }}
        onKeyDown={(event) => {
          if (event.key === "Enter") void submit();
          if (event.key === "Escape") tree.cancelEditing();
        }}
        onBlur={() => {
          if (!busy && error === null) tree.cancelEditing();
        }}
      />
      {error && <div className={styles.nameError}>{error}</div>}
    </div>
  );
}

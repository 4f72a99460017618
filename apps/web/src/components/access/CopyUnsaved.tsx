"use client";

import { useRef, useState } from "react";
import styles from "./access.module.css";
import { clipboardText, type UnsavedText } from "./unsaved-at-end";

/**
 * "Copy what you typed that was not saved": the files whose text the service never got, as this
 * page had them. The text is also shown, so it can be copied by hand where the clipboard is not
 * available (a page served over plain http under a host name).
 */
export function CopyUnsaved({ texts }: { texts: readonly UnsavedText[] }) {
  const area = useRef<HTMLTextAreaElement>(null);
  const [copied, setCopied] = useState<"yes" | "by-hand" | null>(null);
  const text = clipboardText(texts);

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setCopied("yes");
    } catch {
      area.current?.select();
      setCopied(document.execCommand("copy") ? "yes" : "by-hand");
    }
  }

  return (
    <div className={styles.unsaved}>
      <p>
        The workspace never got some of what you typed in {texts.map((t) => t.path).join(", ")}. Copy your
        text to keep it.
      </p>
      <button type="button" className="button" data-testid="copy-unsaved" onClick={() => void copy()}>
        Copy what you typed that was not saved
      </button>
      {copied === "yes" && <span data-testid="copy-unsaved-done"> Copied.</span>}
      {copied === "by-hand" && <span> Select the text below and copy it.</span>}
      <details open={copied === "by-hand"}>
        <summary>Show it</summary>
        <textarea
          ref={area}
          className={styles.unsavedText}
          readOnly
          value={text}
          data-testid="unsaved-text"
          aria-label="What you typed that was not saved"
        />
      </details>
    </div>
  );
}

"use client";

import { useState } from "react";
import settings from "../settings-page/settings-page.module.css";
import styles from "./admin.module.css";

/**
 * A link just made (an invitation or a reset link) for the admin to pass on: shown in full, so it
 * can be copied by hand where the clipboard is not allowed, with a Copy button and when it expires.
 */
export function LinkToCopy({ made, testId }: { made: { url: string; expiresAt: string }; testId: string }) {
  const [copied, setCopied] = useState(false);
  const copy = () =>
    navigator.clipboard.writeText(made.url).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  return (
    <div className={styles.link}>
      <input
        readOnly
        className={styles.linkUrl}
        data-testid={testId}
        value={made.url}
        aria-label="Link to send"
        onFocus={(event) => event.target.select()}
      />
      <button type="button" className="button" onClick={() => void copy()}>
        {copied ? "Copied" : "Copy"}
      </button>
      <span className={settings.muted}>
        single use, until {new Date(made.expiresAt).toLocaleString()}; it is shown only now
      </span>
    </div>
  );
}

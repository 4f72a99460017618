"use client";

import { type ReactNode, useEffect, useState } from "react";
import styles from "./login-form.module.css";

type Preview = { ok: true } | { ok: false; error: string };

/**
 * A page opened from a secret link (a share, an invitation, a password reset): asks the service
 * what the link is, says so while it waits, shows its refusal when the link is no good, and the
 * page's form once it is.
 */
export function LinkPage<P extends Preview>({
  load,
  refusedTitle,
  refusedHint,
  errorTestId,
  children,
}: {
  load: () => Promise<P>;
  refusedTitle: string;
  refusedHint?: string;
  errorTestId: string;
  children: (preview: Extract<P, { ok: true }>) => ReactNode;
}) {
  const [preview, setPreview] = useState<P | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the link is asked about once per page
  useEffect(() => {
    void load().then(setPreview);
  }, []);

  if (preview === null) {
    return (
      <main className={styles.page}>
        <p className={styles.card}>
          <span className="spinner" /> Opening the link…
        </p>
      </main>
    );
  }
  if (!preview.ok) {
    return (
      <main className={styles.page}>
        <div className={styles.card}>
          <h1 className={styles.title}>{refusedTitle}</h1>
          <p className={styles.error} data-testid={errorTestId} role="alert">
            {preview.error}
          </p>
          {refusedHint && <p className={styles.hint}>{refusedHint}</p>}
        </div>
      </main>
    );
  }
  return <main className={styles.page}>{children(preview as Extract<P, { ok: true }>)}</main>;
}

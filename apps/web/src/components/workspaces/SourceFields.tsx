"use client";

import styles from "./import.module.css";

export type SourceKind = "empty" | "git" | "upload";

/** What the new-workspace form holds about where the files come from. */
export interface SourceDraft {
  kind: SourceKind;
  url: string;
  ref: string;
  token: string;
  shallow: boolean;
  file: File | null;
}

export const EMPTY_SOURCE: SourceDraft = {
  kind: "empty",
  url: "",
  ref: "",
  token: "",
  shallow: false,
  file: null,
};

const KINDS: { kind: SourceKind; label: string }[] = [
  { kind: "empty", label: "Empty" },
  { kind: "git", label: "Git URL" },
  { kind: "upload", label: "Upload" },
];

/** Empty / Git URL / Upload, and the fields of the one chosen. */
export function SourceFields({
  draft,
  onChange,
}: {
  draft: SourceDraft;
  onChange(draft: SourceDraft): void;
}) {
  const set = (patch: Partial<SourceDraft>) => onChange({ ...draft, ...patch });
  return (
    <>
      <div className={styles.sources} role="radiogroup" aria-label="Start from">
        {KINDS.map(({ kind, label }) => (
          <label key={kind} data-testid={`source-${kind}`}>
            <input
              type="radio"
              name="workspace-source"
              checked={draft.kind === kind}
              onChange={() => set({ kind })}
            />
            {label}
          </label>
        ))}
      </div>
      {draft.kind === "git" && (
        <div className={styles.fields}>
          <input
            type="text"
            inputMode="url"
            data-testid="git-url"
            placeholder="https://host/owner/repository.git"
            aria-label="Repository URL"
            value={draft.url}
            onChange={(event) => set({ url: event.target.value })}
          />
          <input
            type="text"
            data-testid="git-ref"
            placeholder="branch or tag (default branch)"
            aria-label="Branch or tag"
            value={draft.ref}
            onChange={(event) => set({ ref: event.target.value })}
          />
          <input
            type="password"
            data-testid="git-token"
            placeholder="token, for a private repository"
            aria-label="Access token"
            autoComplete="off"
            value={draft.token}
            onChange={(event) => set({ token: event.target.value })}
          />
          <label>
            <input
              type="checkbox"
              data-testid="git-shallow"
              checked={draft.shallow}
              onChange={(event) => set({ shallow: event.target.checked })}
            />{" "}
            Latest commit only
          </label>
        </div>
      )}
      {draft.kind === "upload" && (
        <div className={styles.fields}>
          <input
            type="file"
            data-testid="upload-file"
            aria-label="Archive to upload"
            accept=".zip,.tar,.tar.gz,.tgz,application/zip,application/x-tar,application/gzip"
            onChange={(event) => set({ file: event.target.files?.[0] ?? null })}
          />
        </div>
      )}
    </>
  );
}

"use client";

import { MAX_LISTED_FILES } from "@coder/protocol";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import { errorMessage } from "../../lib/errors/error-message";
import { baseName, parentOf, ROOT } from "../../lib/paths/workspace-path";
import { useTRPC } from "../../lib/trpc/client";
import { Highlighted, Picker } from "../picker/Picker";
import styles from "../picker/picker.module.css";
import { type FileHit, FileIndex, parseFileQuery } from "./file-filter";

const SHOWN = 50;

/** The workspace's file list for quick open: fetched once, then refreshed when files come or go. */
export function useFileList(workspaceId: string, enabled: boolean) {
  const trpc = useTRPC();
  return useQuery({
    ...trpc.files.list.queryOptions({ workspaceId }),
    enabled,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/**
 * Ctrl-P: type part of a file's name, pick it with the arrows and Enter. `name:40` opens it at
 * line 40; `:40` goes to line 40 of the open file; `>` switches to the command palette.
 */
export function QuickOpen({
  workspaceId,
  recent,
  onOpen,
  onGoToLine,
  onCommands,
  onClose,
}: {
  workspaceId: string;
  /** Open tabs, shown first before anything is typed. */
  recent: readonly string[];
  onOpen(path: string, line?: number, column?: number): void;
  onGoToLine(line: number, column?: number): void;
  onCommands(): void;
  onClose(): void;
}) {
  const [raw, setRaw] = useState("");
  const list = useFileList(workspaceId, true);
  const index = useMemo(() => (list.data ? new FileIndex(list.data.files) : null), [list.data]);
  useEffect(() => index?.warm(), [index]);

  const query = parseFileQuery(raw);
  const hits: FileHit[] = useMemo(() => {
    if (!index) return [];
    if (query.text !== "") return index.search(query.text, SHOWN);
    const first = recent.map((path) => ({ path, indexes: [] }));
    const rest = index.search("", SHOWN).filter((hit) => !recent.includes(hit.path));
    return [...first, ...rest].slice(0, SHOWN);
  }, [index, query.text, recent]);

  const onQuery = (next: string) => {
    if (next.startsWith(">")) onCommands();
    else setRaw(next);
  };
  const pick = (hit: FileHit) => onOpen(hit.path, query.line, query.column);
  const goToLine = query.text === "" && query.line !== undefined;

  let note: string | undefined;
  if (list.isPending) note = "Listing the workspace's files…";
  else if (list.isError) note = `Could not list the files: ${errorMessage(list.error)}`;
  else if (goToLine) note = `Press Enter to go to line ${query.line} of the open file.`;
  else if (hits.length === 0) note = "No file matches.";
  else if (list.data?.truncated)
    note = `Results truncated: only the first ${MAX_LISTED_FILES.toLocaleString("en")} files are searched.`;

  return (
    <Picker
      label="Go to file"
      testId="quick-open"
      placeholder="Go to file (name:line to jump to a line, > for commands)"
      query={raw}
      onQuery={onQuery}
      items={goToLine ? [] : hits}
      itemKey={(hit) => hit.path}
      renderItem={(hit) => <FileRow hit={hit} />}
      onPick={pick}
      onEnterWithoutItem={goToLine ? () => onGoToLine(query.line ?? 1, query.column) : undefined}
      onClose={onClose}
      note={note}
    />
  );
}

function FileRow({ hit }: { hit: FileHit }) {
  const name = baseName(hit.path);
  const folder = parentOf(hit.path);
  const nameStart = hit.path.length - name.length;
  return (
    <>
      <span className={styles.primary} data-path={hit.path}>
        <Highlighted
          text={name}
          indexes={hit.indexes.filter((i) => i >= nameStart).map((i) => i - nameStart)}
        />
      </span>
      {folder !== ROOT && (
        <span className={styles.secondary}>
          <Highlighted text={folder} indexes={hit.indexes.filter((i) => i < folder.length)} />
        </span>
      )}
    </>
  );
}

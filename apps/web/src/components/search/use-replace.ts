"use client";

import type { ReplacedFile, TextQuery } from "@coder/protocol";
import { useState } from "react";
import { redirectIfLoggedOut } from "../../lib/auth/session-expiry";
import { errorCode, errorMessage } from "../../lib/errors/error-message";
import { useTRPCClient } from "../../lib/trpc/client";

type Changed = Extract<ReplacedFile, { status: "changed" }>;

/** What the last replace did, and what undoing it would write back. */
export interface ReplaceOutcome {
  message: string;
  /** The files changed, with their previous text: "Undo replace" writes it back. */
  undo: Changed[];
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString("en")} ${n === 1 ? one : many}`;
}

/**
 * Replace across files and its undo. Both write through the editor's write path (the replace in
 * the service, the undo with `files.write`), version-checked: a file changed since is left alone
 * and named.
 */
export function useReplace(workspaceId: string) {
  const client = useTRPCClient();
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<ReplaceOutcome | null>(null);

  async function replaceAll(query: TextQuery, replacement: string, paths: string[]): Promise<void> {
    setBusy(true);
    try {
      const { files } = await client.files.replace.mutate({ workspaceId, query, replacement, paths });
      const changed = files.filter((file): file is Changed => file.status === "changed");
      const skipped = files.filter((file) => file.status === "skipped");
      const count = changed.reduce((n, file) => n + file.count, 0);
      const notes = skipped.map((file) => `${file.path}: ${file.reason}`);
      setOutcome({
        message: [
          `Replaced ${plural(count, "match", "matches")} in ${plural(changed.length, "file")}.`,
          ...notes,
        ].join(" "),
        undo: changed,
      });
    } catch (error) {
      if (!redirectIfLoggedOut(error))
        setOutcome({ message: `Nothing was replaced: ${errorMessage(error)}`, undo: [] });
    } finally {
      setBusy(false);
    }
  }

  async function undo(): Promise<void> {
    if (!outcome) return;
    setBusy(true);
    const kept: string[] = [];
    for (const file of outcome.undo) {
      try {
        await client.files.write.mutate({
          workspaceId,
          path: file.path,
          content: file.previous,
          expectedVersion: file.version,
        });
      } catch (error) {
        if (redirectIfLoggedOut(error)) return;
        kept.push(
          errorCode(error) === "CONFLICT"
            ? `${file.path} (changed since)`
            : `${file.path} (${errorMessage(error)})`,
        );
      }
    }
    setBusy(false);
    setOutcome({
      message: kept.length ? `Undone, except in ${kept.join(", ")}.` : "The replace was undone.",
      undo: [],
    });
  }

  return { busy, outcome, replaceAll, undo, dismiss: () => setOutcome(null) };
}

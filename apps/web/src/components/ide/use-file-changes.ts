"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useSubscription } from "@trpc/tanstack-react-query";
import { redirectIfLoggedOut } from "../../lib/auth/session-expiry";
import { errorMessage } from "../../lib/errors/error-message";
import { useTRPC } from "../../lib/trpc/client";
import type { EditorController } from "../editor/editor-controller";
import { foldersToRefresh } from "../file-tree/tree-refresh";
import { useToasts } from "../toast/Toasts";

/**
 * Follows `files.changes` for the workspace: folder listings that changed are refetched, and
 * the editor compares its open files with the disk. After a gap it cannot replay, the service
 * says `resync` and everything shown is reloaded.
 */
export function useFileChanges(workspaceId: string, editor: EditorController, enabled: boolean): void {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toasts = useToasts();

  useSubscription(
    trpc.files.changes.subscriptionOptions(
      { workspaceId },
      {
        enabled,
        onData: ({ data }) => {
          if (data.resync) {
            void queryClient.invalidateQueries({ queryKey: trpc.files.tree.pathKey() });
            void queryClient.invalidateQueries({ queryKey: trpc.files.list.pathKey() });
            editor.resync();
            void queryClient.invalidateQueries({ queryKey: trpc.git.pathKey() });
            return;
          }
          // Quick open's list changes only when files come or go.
          if (data.changes.some((change) => change.type !== "change")) {
            void queryClient.invalidateQueries({ queryKey: trpc.files.list.queryKey({ workspaceId }) });
          }
          for (const path of foldersToRefresh(data.changes)) {
            void queryClient.invalidateQueries({
              queryKey: trpc.files.tree.queryKey({ workspaceId, path, depth: 1 }),
            });
          }
          editor.fileChanges(data.changes);
          // Edited files change git's status and diffs (the Source Control panel).
          void queryClient.invalidateQueries({ queryKey: trpc.git.status.pathKey() });
          void queryClient.invalidateQueries({ queryKey: trpc.git.diff.pathKey() });
        },
        onError: (error) => {
          if (!redirectIfLoggedOut(error)) toasts.error(`Live file updates stopped: ${errorMessage(error)}`);
        },
      },
    ),
  );
}

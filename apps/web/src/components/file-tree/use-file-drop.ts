"use client";

import { useQueryClient } from "@tanstack/react-query";
import { type DragEvent, useState } from "react";
import { redirectIfLoggedOut } from "../../lib/auth/session-expiry";
import { errorMessage } from "../../lib/errors/error-message";
import { parentOf, ROOT } from "../../lib/paths/workspace-path";
import { useTRPC, useTRPCClient } from "../../lib/trpc/client";
import { droppedEntries, packFiles } from "../../lib/upload/pack-files";
import { uploadFile } from "../../lib/upload/upload-file";
import { useToasts } from "../toast/Toasts";

/** The folder a drop lands in: the folder row under the pointer, the folder of a file row, or the root. */
function dropFolder(target: EventTarget | null): string {
  const item = target instanceof Element ? target.closest<HTMLElement>('[data-testid="tree-item"]') : null;
  const path = item?.dataset.path;
  if (!path) return ROOT;
  return item.dataset.dir === "true" ? path : parentOf(path);
}

const carriesFiles = (event: DragEvent) => event.dataTransfer.types.includes("Files");

/**
 * Files and folders dropped on the file tree go into the workspace: packed into a tar in the
 * browser, sent to `POST /api/uploads`, unpacked by `files.unpack` in a container (editors only;
 * the service refuses a viewer). Spread `handlers` on the tree; `dropping` is true while files hover.
 */
export function useFileDrop(workspaceId: string) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const toasts = useToasts();
  const [dropping, setDropping] = useState(false);
  const [busy, setBusy] = useState(false);

  async function upload(entries: Promise<Awaited<ReturnType<typeof droppedEntries>>>, folder: string) {
    setBusy(true);
    try {
      const files = await entries;
      if (files.length === 0) return;
      const uploadId = await uploadFile(packFiles(files), "dropped-files.tar");
      const report = await client.files.unpack.mutate({ workspaceId, uploadId, path: folder });
      if (report.skippedTotal > 0) {
        const names = report.skipped.slice(0, 3).map((s) => `${s.path} (${s.reason})`);
        toasts.error(`${report.skippedTotal} dropped entries were not unpacked: ${names.join(", ")}`);
      }
    } catch (error) {
      if (!redirectIfLoggedOut(error))
        toasts.error(`Could not upload into ${folder}: ${errorMessage(error)}`);
    } finally {
      setBusy(false);
      await queryClient.invalidateQueries({ queryKey: trpc.files.tree.pathKey() });
    }
  }

  return {
    dropping,
    busy,
    handlers: {
      onDragOver(event: DragEvent) {
        if (!carriesFiles(event)) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = "copy";
        setDropping(true);
      },
      onDragLeave(event: DragEvent) {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDropping(false);
      },
      onDrop(event: DragEvent) {
        if (!carriesFiles(event)) return;
        event.preventDefault();
        setDropping(false);
        // Taken now: the DataTransfer is emptied once the event is over.
        void upload(droppedEntries(event.dataTransfer), dropFolder(event.target));
      },
    },
  };
}

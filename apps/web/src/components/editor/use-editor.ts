"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { accessEnded } from "../../lib/auth/access-ended";
import { redirectIfLoggedOut } from "../../lib/auth/session-expiry";
import { useTRPC, useTRPCClient } from "../../lib/trpc/client";
import { unsavedAtEnd } from "../access/unsaved-at-end";
import { useToasts } from "../toast/Toasts";
import { LiveDocument } from "./collab/live-document";
import { EditorController } from "./editor-controller";
import { GitIndexTexts } from "./git-gutter/index-texts";
import { LanguageIntelligence } from "./lsp/language-intelligence";

/**
 * One editor controller per workspace page, wired to the API, the toasts and the language servers;
 * `readOnly` for a viewer (a page's role does not change while it is open).
 */
export function useEditor(workspaceId: string, readOnly: boolean): EditorController {
  const client = useTRPCClient();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toasts = useToasts();
  const [controller] = useState(
    () =>
      new EditorController({
        files: {
          read: (path) => client.files.read.query({ workspaceId, path }),
          write: (path, content, expectedVersion) =>
            client.files.write.mutate({ workspaceId, path, content, expectedVersion }),
        },
        confirm: (message) => window.confirm(message),
        showError: (message) => toasts.error(message),
        sessionExpired: redirectIfLoggedOut,
        intelligence: new LanguageIntelligence({ workspaceId }),
        readOnly,
        openLive: (path) => LiveDocument.open({ location: window.location, workspaceId, path }),
        gitGutter: new GitIndexTexts({
          queryClient,
          queryOf: (path) => trpc.git.indexText.queryOptions({ workspaceId, path }),
          statusKey: trpc.git.status.queryKey({ workspaceId }),
          indexTextKey: trpc.git.indexText.pathKey(),
        }),
      }),
  );
  // Access ended for good: the editor turns read-only at once, and the notice offers what the
  // service never got.
  useEffect(() => {
    const end = () => {
      if (accessEnded.snapshot() !== null) unsavedAtEnd.set(controller.endAccess());
    };
    end();
    return accessEnded.subscribe(end);
  }, [controller]);
  // Language servers stop with the page; a remount opens new connections as files need them.
  useEffect(() => () => controller.intelligence?.dispose(), [controller]);
  // The index texts' queries stop with the page too; files opened later follow theirs again.
  useEffect(() => () => controller.gitIndexTexts?.dispose(), [controller]);
  // The service may run more servers than the defaults (CODER_LSP_SERVERS); files opened from
  // now on use its table.
  useEffect(() => {
    client.lsp.servers.query().then(
      (servers) => controller.intelligence?.setServers(servers),
      () => undefined,
    );
  }, [client, controller]);
  return controller;
}

"use client";

import type { PresencePerson } from "@coder/protocol";
import { useSubscription } from "@trpc/tanstack-react-query";
import { useCallback, useMemo, useRef, useState } from "react";
import { redirectIfLoggedOut } from "../../lib/auth/session-expiry";
import { useTRPC, useTRPCClient } from "../../lib/trpc/client";

/** A random id for this tab, so the service can tell a person's tabs apart. */
function newClientId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return btoa(String.fromCharCode(...bytes))
    .replaceAll("+", "-")
    .replaceAll("/", "_");
}

export interface Presence {
  /** Everyone on the workspace now, this person included (`you`). */
  people: PresencePerson[];
  /** Tells the others which file this tab shows (null: none). */
  showFile(path: string | null): void;
  /** The board id of the person this tab follows (their file, their cursor), or null. */
  following: string | null;
  /** Starts following the person with board id `id` (null: stops). */
  follow(id: string | null): void;
}

/**
 * Puts this tab on the workspace's presence board while the page is open and follows the board.
 * The file shown is sent again whenever the subscription (re)starts, since a new connection starts
 * with none.
 */
export function usePresence(workspaceId: string): Presence {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const [clientId] = useState(newClientId);
  const [people, setPeople] = useState<PresencePerson[]>([]);
  const file = useRef<string | null>(null);
  const [following, follow] = useState<string | null>(null);

  const send = useCallback(() => {
    client.presence.openFile.mutate({ workspaceId, clientId, path: file.current }).catch(() => undefined);
  }, [client, workspaceId, clientId]);

  useSubscription(
    trpc.presence.watch.subscriptionOptions(
      { workspaceId, clientId },
      {
        onStarted: send,
        onData: setPeople,
        onError: (error) => {
          redirectIfLoggedOut(error);
          setPeople([]);
        },
      },
    ),
  );

  const showFile = useCallback(
    (path: string | null) => {
      if (file.current === path) return;
      file.current = path;
      send();
    },
    [send],
  );
  // Nobody is followed once they left.
  const followed = following !== null && people.some((p) => p.id === following) ? following : null;
  return useMemo(() => ({ people, showFile, following: followed, follow }), [people, showFile, followed]);
}

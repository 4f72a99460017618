import { z } from "zod";
import { workspacePath } from "./files";

/**
 * Live co-editing (Yjs over Hocuspocus at `/collab/<workspaceId>/<connection>`): what the service
 * and the editor must agree on. One WebSocket per tab carries every document the tab has open; a
 * document's name is the file's path in the workspace.
 */

/** The Y.Text that holds a file's content. */
export const COLLAB_TEXT = "text";

/** The Y.Map the service writes facts into (`epoch`); clients only read it. */
export const COLLAB_META = "meta";

/**
 * The token a client sends when it opens a document: the epoch of the copy it holds (null for a
 * new copy). The service refuses a copy of an earlier load (`COLLAB_STALE`), so a tab that held
 * the document while the service rebuilt it from disk starts over instead of merging its old
 * copy in twice.
 */
export interface CollabToken {
  epoch: string | null;
}

/** Reasons the service refuses or ends a document, as the editor shows them. */
export const CollabRefusal = {
  /** The tab's copy is from an earlier load: drop it and open the document again. */
  Stale: "stale-copy",
  /** The file is not text, or too large to edit live. */
  NotText: "not-text",
  TooLarge: "too-large",
  TooMany: "too-many-documents",
  NotFound: "not-found",
  Deleted: "deleted",
  Renamed: "renamed",
  Invalid: "invalid",
} as const;
export type CollabRefusal = (typeof CollabRefusal)[keyof typeof CollabRefusal];

/**
 * Close codes with which the service ends a collaboration socket besides the access ones
 * (AccessCloseCode); the reason is a CollabRefusal, which the editor shows.
 */
export const CollabCloseCode = {
  /** An update would grow the document past what is edited live, or past its sender's share. */
  TooLarge: 4413,
} as const;

/** Files above this many bytes are not edited live (the editor says so). */
export const MAX_COLLAB_FILE_BYTES = 2 * 1024 * 1024;

/** The identity the service gives a person's cursor (from their login, never from the page). */
export interface CollabUser {
  name: string;
  /** A `#rrggbb` colour. */
  color: string;
  /** The colour of their selection (`color` with transparency). */
  colorLight: string;
  /** Their entry's id on the presence board (`PresencePerson.id`): a follower finds their cursor by it. */
  presenceId?: string;
}

/** The name and colour of the agent's edits in the editors (its turn's prompter is added to the name). */
export const AGENT_COLLAB_USER: CollabUser = { name: "Agent", color: "#c5c8c6", colorLight: "#c5c8c633" };

/**
 * What the service tells the editors of one document (Hocuspocus stateless messages, JSON):
 * `hello` on every (re)connect with the epoch of the load; `disk` whether the file on disk holds
 * the document's text; `closed` when the document ends because its file went away (deleted, or
 * renamed: `to` is the new path) or is no longer text.
 */
export const collabNote = z.discriminatedUnion("type", [
  z.object({ type: z.literal("hello"), epoch: z.string().max(64), saved: z.boolean() }),
  z.object({ type: z.literal("disk"), saved: z.boolean(), error: z.string().max(2000).optional() }),
  z.object({
    type: z.literal("closed"),
    reason: z.enum(["deleted", "renamed", "not-text", "too-large"]),
    to: workspacePath.optional(),
    message: z.string().max(2000),
  }),
]);
export type CollabNote = z.infer<typeof collabNote>;

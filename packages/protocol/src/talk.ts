import { z } from "zod";

/** The longest message a person may send to the workspace's people (characters). */
export const TALK_MAX_CHARS = 2000;
/** How many of a workspace's latest messages and notices are kept; older ones are deleted. */
export const TALK_KEPT_MESSAGES = 500;
/** Each person may send this many messages per window on a workspace… */
export const TALK_RATE_MESSAGES = 10;
/** …of this many seconds. */
export const TALK_RATE_SECONDS = 10;

/**
 * A message for the people in a workspace: not only blanks, at most TALK_MAX_CHARS. It is shown
 * as plain text, never as HTML or Markdown.
 */
export const talkText = z
  .string()
  .max(TALK_MAX_CHARS, `a message is at most ${TALK_MAX_CHARS} characters`)
  .refine((text) => text.trim().length > 0, "a message cannot be empty");

export const talkSendInput = z.object({ text: talkText });

export const talkListInput = z.object({
  /** The last line id the page has: only later lines come (none: all kept lines). */
  after: z.number().int().nonnegative().optional(),
});

export const talkWatchInput = z.object({
  /** The last message id the page has (tRPC's reconnect sends it): only later ones follow. */
  lastEventId: z.string().regex(/^\d+$/, "lastEventId is a message id").nullish(),
});

export const talkSettingInput = z.object({ viewersMayWrite: z.boolean() });

/** Who a line is by or about; the service takes it from their login, never from a request. */
export interface TalkPerson {
  name: string;
  role: "owner" | "editor" | "viewer";
  /** Joined through a share link (the page shows the guest badge). */
  guest: boolean;
}

/**
 * One line of the workspace's talk: a person's message, or a notice that someone joined, left or
 * lost their access (`text` null). Ids grow in the order lines were stored.
 */
export interface TalkLine {
  id: number;
  kind: "message" | "joined" | "left" | "revoked";
  person: TalkPerson;
  text: string | null;
  /** ISO time it was stored. */
  at: string;
  /** Whether the caller wrote it. */
  mine: boolean;
}

/** What the page needs to show the talk: new lines and who may write. */
export interface TalkUpdate {
  /** Lines after the ones the page has, oldest first (all kept lines the first time). */
  lines: TalkLine[];
  /** The owner's setting: may viewers write? */
  viewersMayWrite: boolean;
  /** Whether the caller may write now. */
  youMayWrite: boolean;
}

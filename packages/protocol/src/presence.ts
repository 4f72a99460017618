import { z } from "zod";
import { workspacePath } from "./files";

/** One browser tab's presence on a workspace; the tab picks it at random and keeps it. */
export const presenceClientId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{8,64}$/, "a client id is 8 to 64 letters, digits, - or _");

export const presenceWatchInput = z.object({ clientId: presenceClientId });

export const presenceOpenFileInput = z.object({
  clientId: presenceClientId,
  /** The file the tab shows now; null when none is open. */
  path: workspacePath.nullable(),
});

/**
 * A person connected to a workspace now (all their tabs together). The service issues the name,
 * colour and role from their login, never from what a page claims.
 */
export interface PresencePerson {
  /** Stable while the person stays; not their session or anything that lets one act as them. */
  id: string;
  name: string;
  /** A CSS colour from the service's palette. */
  colour: string;
  role: "owner" | "editor" | "viewer";
  /** The file their most recently active tab shows, or null. */
  file: string | null;
  /** Whether this entry is the caller. */
  you: boolean;
  /**
   * Present on the agent's entry while one of its turns runs: `for` is the name of the person who
   * prompted it (null when nobody is named), and `file` what its running call reads or changes.
   */
  agent?: { for: string | null };
}

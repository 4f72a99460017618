import type { CollabUser } from "@coder/protocol";
import { displayName, type Principal } from "../auth/principal";
import type { PresenceBoard } from "../presence/presence-board";

/** Before the person's tab is on the presence board (it joins a moment later), a neutral colour. */
const UNLISTED_COLOUR = "#adbac7";

/**
 * The label of a person's cursor in the editors: the name and colour the presence board gave
 * them, from their login; never what their page says. Colours are `#rrggbb` from the board's
 * palette, so the selection colour is the same with transparency.
 */
export function collabUser(presence: PresenceBoard, workspaceId: string, principal: Principal): CollabUser {
  const person = presence.identity(workspaceId, principal);
  const color = person?.colour ?? UNLISTED_COLOUR;
  return { name: person?.name ?? displayName(principal), color, colorLight: `${color}33` };
}

import { AGENT_COLLAB_USER, type CollabUser } from "@coder/protocol";
import { displayName, type Principal } from "../auth/principal";
import type { PresenceBoard } from "../presence/presence-board";

/** Before the person's tab is on the presence board (it joins a moment later), a neutral colour. */
const UNLISTED_COLOUR = "#adbac7";

/**
 * The label of a person's cursor in the editors: the name and colour the presence board gave
 * them, from their login; never what their page says. Colours are `#rrggbb` from the board's
 * palette, so the selection colour is the same with transparency. The board's id of the person
 * lets a follower find their cursor.
 */
export function collabUser(presence: PresenceBoard, workspaceId: string, principal: Principal): CollabUser {
  const person = presence.identity(workspaceId, principal);
  const color = person?.colour ?? UNLISTED_COLOUR;
  return {
    name: person?.name ?? displayName(principal),
    color,
    colorLight: `${color}33`,
    ...(person ? { presenceId: person.id } : {}),
  };
}

/** The label of the agent's cursor and edits: the agent, and the person whose prompt it works on. */
export function agentCollabUser(prompter: string | null | undefined): CollabUser {
  return prompter
    ? { ...AGENT_COLLAB_USER, name: `${AGENT_COLLAB_USER.name} · for ${prompter}` }
    : AGENT_COLLAB_USER;
}

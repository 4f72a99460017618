import { createHash } from "node:crypto";
import { displayName, type Principal, type Role } from "../auth/principal";

/** A person as the talk knows them: from their login, never from what a page sends. */
export interface Speaker {
  /** Stable for the person (every login of one user is that user); a hash, useless for acting as them. */
  key: string;
  name: string;
  role: Role;
  guest: boolean;
}

/** The speaker a principal is on a workspace where it holds `role`. */
export function speakerOf(principal: Principal, role: Role): Speaker {
  if (principal.kind === "user") return userSpeaker(principal.userId, displayName(principal), role);
  return { key: speakerKey(`guest:${principal.sessionId}`), name: displayName(principal), role, guest: true };
}

/** The speaker an account is, whichever of their logins speaks (also when none is open). */
export function userSpeaker(userId: string, name: string, role: Role): Speaker {
  return { key: speakerKey(`user:${userId}`), name, role, guest: false };
}

function speakerKey(login: string): string {
  return createHash("sha256").update(`talk:${login}`).digest("base64url").slice(0, 22);
}

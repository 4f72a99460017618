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
  const login = principal.kind === "user" ? `user:${principal.userId}` : `guest:${principal.sessionId}`;
  return {
    key: createHash("sha256").update(`talk:${login}`).digest("base64url").slice(0, 22),
    name: displayName(principal),
    role,
    guest: principal.kind === "guest",
  };
}

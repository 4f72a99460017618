/**
 * Close codes (in the application range 4000–4999) with which the service refuses or ends a
 * WebSocket (terminal, language server, later collaboration) for reasons of access. The browser
 * maps the code to a message; `retry` says whether reconnecting could help. An unknown path or
 * a wrong Origin/Host stays an HTTP refusal before the upgrade.
 */
export const AccessCloseCode = {
  /** No login, or the login ended: logout, a new admin token (`npm run token`), or expiry. */
  LoggedOut: 4401,
  /** The caller's role on the workspace does not allow this connection. */
  Forbidden: 4403,
  /** The workspace in the path does not exist (or was deleted). */
  NoWorkspace: 4404,
  /** The workspace exists but is not running; it may be started. */
  NotRunning: 4409,
  /** The guest's share link was revoked by the owner (or its workspace deleted). */
  LinkRevoked: 4410,
  /** The guest's share link expired. */
  LinkExpired: 4411,
  /** The owner stopped sharing the workspace with this person by name (`share.revoke`). */
  ShareRevoked: 4412,
  /** The person has as many sockets of this kind open on the workspace as they may. */
  TooManySockets: 4429,
} as const;

export type AccessCloseCode = (typeof AccessCloseCode)[keyof typeof AccessCloseCode];

export interface AccessRefusal {
  message: string;
  /** Whether a new socket could succeed later (only when the workspace is not running yet). */
  retry: boolean;
}

const refusals: Record<AccessCloseCode, AccessRefusal> = {
  [AccessCloseCode.LoggedOut]: { message: "You were logged out.", retry: false },
  [AccessCloseCode.Forbidden]: { message: "You are not allowed to open this here.", retry: false },
  [AccessCloseCode.NoWorkspace]: { message: "This workspace does not exist.", retry: false },
  [AccessCloseCode.NotRunning]: { message: "The workspace is not running.", retry: true },
  [AccessCloseCode.LinkRevoked]: { message: "This link was revoked.", retry: false },
  [AccessCloseCode.LinkExpired]: { message: "This link expired.", retry: false },
  [AccessCloseCode.ShareRevoked]: {
    message: "The owner stopped sharing this workspace with you.",
    retry: false,
  },
  [AccessCloseCode.TooManySockets]: {
    message: "Too many connections are open to this workspace; close some tabs or files.",
    retry: true,
  },
};

/** What a socket closed with `code` means for the person; null when the code is not one of these. */
export function accessRefusal(code: number): AccessRefusal | null {
  return Object.hasOwn(refusals, code) ? refusals[code as AccessCloseCode] : null;
}

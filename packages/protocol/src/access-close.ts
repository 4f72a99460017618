/**
 * Close codes (in the application range 4000–4999) that end a terminal or language server socket
 * because the access it was opened with ended. The browser shows the message and does not
 * reconnect: a new socket with the same cookie would be refused.
 */
export const AccessCloseCode = {
  /** The login session ended: logout, a new admin token (`npm run token`), or expiry. */
  LoggedOut: 4401,
} as const;

export type AccessCloseCode = (typeof AccessCloseCode)[keyof typeof AccessCloseCode];

const messages: Record<AccessCloseCode, string> = {
  [AccessCloseCode.LoggedOut]: "You were logged out.",
};

/** What to tell the person when a socket closed with `code`; null when the code is not one of these. */
export function accessEndedMessage(code: number): string | null {
  return Object.hasOwn(messages, code) ? messages[code as AccessCloseCode] : null;
}

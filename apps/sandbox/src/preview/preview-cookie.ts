import type { IncomingMessage } from "node:http";
import { stringifySetCookie } from "cookie";
import { readCookie } from "../auth/http-auth";

/** The preview origin's own cookie; like every `coder_` cookie, the proxy never forwards it to the app. */
export const PREVIEW_COOKIE = "coder_preview";

/** The query parameter that carries `preview.open`'s one-time token to the preview origin. */
export const PREVIEW_TOKEN_PARAM = "coder_preview_token";

/**
 * Host-only (no Domain: no other preview origin and not the IDE ever gets it), HttpOnly (the app's
 * scripts cannot read it), and `SameSite=None; Secure; Partitioned` so it works in the IDE's
 * cross-site preview iframe where third-party cookies are blocked (Chromium treats `*.localhost`
 * as secure). A session cookie: the IDE session it is tied to decides how long it works.
 */
export function previewCookie(value: string): string {
  return stringifySetCookie(PREVIEW_COOKIE, value, {
    path: "/",
    httpOnly: true,
    secure: true,
    sameSite: "none",
    partitioned: true,
  });
}

export function readPreviewCookie(req: IncomingMessage): string | undefined {
  return readCookie(req, PREVIEW_COOKIE);
}

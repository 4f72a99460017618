import type { IncomingMessage, ServerResponse } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import { actorOf, clientOf } from "../audit/audit-entry";
import type { AuditLog } from "../audit/audit-log";
import type { AuthService } from "../auth/auth-service";
import { guestName } from "../auth/guest-name";
import { clearedSessionCookie, readCookie, SESSION_COOKIE, sessionCookie } from "../auth/http-auth";
import { FIRST_ADMIN_ID } from "../db/migrations";
import type { FailureBackoff } from "./failure-backoff";
import { JSON_BODY_LIMIT, json, jsonBody, readBody, validBody } from "./http-answers";
import { HttpRefusal } from "./http-errors";
import type { HttpRoute } from "./http-routes";
import { recordSignIn, recordSignInFailed } from "./sign-in-record";

const loginBody = z.object({ token: z.string().trim().min(1, "enter the login token").max(200) });
const secretBody = z.object({ secret: z.string().max(200) });
const joinBody = secretBody.extend({ name: guestName });

/** One answer for a wrong, expired or revoked link, so the answer tells nothing about which. */
export const SHARE_LINK_REFUSED = "this link is not valid: it may have been revoked or expired";

/** The admin token, as JSON `{"token": …}` or as the login form posts it. */
async function loginToken(req: IncomingMessage): Promise<string> {
  let data: unknown;
  try {
    const raw = await readBody(req, JSON_BODY_LIMIT);
    const type = req.headers["content-type"] ?? "";
    data = type.includes("application/json") ? JSON.parse(raw) : Object.fromEntries(new URLSearchParams(raw));
  } catch {
    throw new HttpRefusal(400, 'send the token as JSON {"token": "..."}');
  }
  return validBody(data, loginBody).token;
}

export function startSession(
  res: ServerResponse,
  status: number,
  session: { cookie: string; maxAgeSeconds: number },
  secureCookies: boolean,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    ...headers,
    "set-cookie": sessionCookie(session.cookie, session.maxAgeSeconds, secureCookies),
  });
  res.end();
}

/**
 * `/auth/login`, `/auth/ticket`, `/auth/logout`, `/auth/share` (a guest joins through a share
 * link) and `/auth/share/preview` (what a link opens, for its join page). A share-link lookup runs
 * in the client's turn (`FailureBackoff`): a wrong secret is a guess, answered late, and too many
 * waiting guesses are refused with 429.
 */
export function authRoutes(
  auth: AuthService,
  secureCookies: boolean,
  backoff: FailureBackoff,
  audit: AuditLog,
): HttpRoute[] {
  const inTurn = <T>(req: IncomingMessage, lookup: () => Promise<T | null>) =>
    backoff.run(req.socket.remoteAddress ?? "unknown", lookup, () => req.socket.destroyed);
  const signedIn = (
    req: IncomingMessage,
    cookie: string,
    action: "auth.signed_in" | "share.joined",
    via: string,
  ) => recordSignIn({ auth, audit }, req, cookie, action, via);
  const failed = (req: IncomingMessage, via: string) => recordSignInFailed(audit, req, via);
  return [
    {
      method: "POST",
      path: "/auth/share/preview",
      access: "anyone",
      async handle({ req, res }) {
        const body = await jsonBody(req, secretBody);
        const preview = await inTurn(req, () => auth.shares.preview(body.secret));
        if (!preview) throw new HttpRefusal(403, SHARE_LINK_REFUSED);
        json(res, 200, preview);
      },
    },
    {
      method: "POST",
      path: "/auth/share",
      access: "anyone",
      async handle({ req, res }) {
        const body = await jsonBody(req, joinBody);
        const session = await inTurn(req, () => auth.shares.join(body.secret, body.name));
        if (!session) {
          failed(req, "share link");
          throw new HttpRefusal(403, SHARE_LINK_REFUSED);
        }
        await signedIn(req, session.cookie, "share.joined", "share link");
        startSession(res, 204, session, secureCookies);
      },
    },
    {
      method: "POST",
      // The admin token and the printed login link sign in the first admin (the break-glass login).
      path: "/auth/login",
      access: "anyone",
      async handle({ req, res }) {
        if (!(await auth.verifyAdminToken(await loginToken(req)))) {
          failed(req, "admin token");
          // A small delay makes online guessing (already hopeless against 256 bits) slower still.
          await sleep(300);
          throw new HttpRefusal(401, "that token is not valid");
        }
        const session = await auth.createSession(FIRST_ADMIN_ID);
        await signedIn(req, session.cookie, "auth.signed_in", "admin token");
        startSession(res, 204, session, secureCookies);
      },
    },
    {
      method: "GET",
      path: "/auth/ticket",
      access: "anyone",
      async handle({ req, res, url }) {
        if (!(await auth.redeemLoginTicket(url.searchParams.get("t") ?? ""))) {
          failed(req, "login link");
          res.writeHead(303, { location: "/login?expired=1" }).end();
          return;
        }
        const session = await auth.createSession(FIRST_ADMIN_ID);
        await signedIn(req, session.cookie, "auth.signed_in", "login link");
        startSession(res, 303, session, secureCookies, { location: "/" });
      },
    },
    {
      method: "POST",
      path: "/auth/logout",
      access: "anyone",
      async handle({ req, res }) {
        const cookie = readCookie(req, SESSION_COOKIE);
        const who = await auth.session(cookie);
        if (cookie) await auth.endSession(cookie);
        if (who) audit.record({ actor: actorOf(who), action: "auth.signed_out", client: clientOf(req) });
        res.writeHead(204, { "set-cookie": clearedSessionCookie() }).end();
      },
    },
  ];
}

import type { IncomingMessage, ServerResponse } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import type { AuthService } from "../auth/auth-service";
import { guestName } from "../auth/guest-name";
import { clearedSessionCookie, readCookie, SESSION_COOKIE, sessionCookie } from "../auth/http-auth";
import { FIRST_ADMIN_ID } from "../db/migrations";
import type { FailureBackoff } from "./failure-backoff";
import { JSON_BODY_LIMIT, json, jsonBody, readBody, validBody } from "./http-answers";
import { HttpRefusal } from "./http-errors";
import type { HttpRoute } from "./http-routes";

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
export function authRoutes(auth: AuthService, secureCookies: boolean, backoff: FailureBackoff): HttpRoute[] {
  const inTurn = <T>(req: IncomingMessage, lookup: () => Promise<T | null>) =>
    backoff.run(req.socket.remoteAddress ?? "unknown", lookup, () => req.socket.destroyed);
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
        if (!session) throw new HttpRefusal(403, SHARE_LINK_REFUSED);
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
          // A small delay makes online guessing (already hopeless against 256 bits) slower still.
          await sleep(300);
          throw new HttpRefusal(401, "that token is not valid");
        }
        startSession(res, 204, await auth.createSession(FIRST_ADMIN_ID), secureCookies);
      },
    },
    {
      method: "GET",
      path: "/auth/ticket",
      access: "anyone",
      async handle({ res, url }) {
        if (!(await auth.redeemLoginTicket(url.searchParams.get("t") ?? ""))) {
          res.writeHead(303, { location: "/login?expired=1" }).end();
          return;
        }
        startSession(res, 303, await auth.createSession(FIRST_ADMIN_ID), secureCookies, { location: "/" });
      },
    },
    {
      method: "POST",
      path: "/auth/logout",
      access: "anyone",
      async handle({ req, res }) {
        const cookie = readCookie(req, SESSION_COOKIE);
        if (cookie) await auth.endSession(cookie);
        res.writeHead(204, { "set-cookie": clearedSessionCookie() }).end();
      },
    },
  ];
}

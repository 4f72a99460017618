import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import type { AuthService } from "../auth/auth-service";
import { guestName } from "../auth/guest-name";
import { clearedSessionCookie, readCookie, SESSION_COOKIE, sessionCookie } from "../auth/http-auth";
import { NameTakenError } from "../auth/share-links";
import { type FailureBackoff, TooManyGuessesError } from "./failure-backoff";

const loginBody = z.object({ token: z.string().trim().min(1, "enter the login token").max(200) });
const secretBody = z.object({ secret: z.string().max(200) });
const joinBody = secretBody.extend({ name: guestName });

/** One answer for a wrong, expired or revoked link, so the answer tells nothing about which. */
export const SHARE_LINK_REFUSED = "this link is not valid: it may have been revoked or expired";

async function readBody(req: IncomingMessage, limit: number): Promise<string> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new Error("request body too large");
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store", ...headers });
  res.end(JSON.stringify(body));
}

/** Reads a JSON body and validates it; on failure answers 400 and returns null. */
async function jsonBody<T>(
  req: IncomingMessage,
  res: ServerResponse,
  schema: z.ZodType<T>,
): Promise<T | null> {
  try {
    const parsed = schema.safeParse(JSON.parse(await readBody(req, 4096)));
    if (parsed.success) return parsed.data;
    json(res, 400, { error: parsed.error.issues[0]?.message ?? "invalid request" });
  } catch {
    json(res, 400, { error: "send a JSON body" });
  }
  return null;
}

/**
 * Runs a share-link lookup in the client's turn (`FailureBackoff`): a null answer is a wrong
 * guess, held back; answers 429 and returns undefined when too many guesses already wait.
 */
async function inTurn<T>(
  req: IncomingMessage,
  res: ServerResponse,
  backoff: FailureBackoff,
  lookup: () => Promise<T | null>,
): Promise<T | null | undefined> {
  try {
    return await backoff.run(req.socket.remoteAddress ?? "unknown", lookup, () => req.socket.destroyed);
  } catch (err) {
    if (!(err instanceof TooManyGuessesError)) throw err;
    json(res, 429, { error: err.message });
    return undefined;
  }
}

/**
 * `/auth/login`, `/auth/ticket`, `/auth/logout`, `/auth/share` (a guest joins through a share
 * link) and `/auth/share/preview` (what a link opens, for its join page). Returns false when the
 * path is not one of them.
 */
export async function handleAuthRoute(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  auth: AuthService,
  secureCookies: boolean,
  backoff: FailureBackoff,
): Promise<boolean> {
  if (url.pathname === "/auth/share/preview" && req.method === "POST") {
    const body = await jsonBody(req, res, secretBody);
    if (!body) return true;
    const preview = await inTurn(req, res, backoff, () => auth.shares.preview(body.secret));
    if (preview === undefined) return true;
    if (preview) json(res, 200, preview);
    else json(res, 403, { error: SHARE_LINK_REFUSED });
    return true;
  }
  if (url.pathname === "/auth/share" && req.method === "POST") {
    const body = await jsonBody(req, res, joinBody);
    if (!body) return true;
    let session: Awaited<ReturnType<typeof auth.shares.join>> | undefined;
    try {
      session = await inTurn(req, res, backoff, () => auth.shares.join(body.secret, body.name));
    } catch (err) {
      // The link is right, the name is someone else's: no guess failed.
      if (!(err instanceof NameTakenError)) throw err;
      json(res, 400, { error: err.message });
      return true;
    }
    if (session === undefined) return true;
    if (!session) {
      json(res, 403, { error: SHARE_LINK_REFUSED });
      return true;
    }
    res.writeHead(204, { "set-cookie": sessionCookie(session.cookie, session.maxAgeSeconds, secureCookies) });
    res.end();
    return true;
  }
  if (url.pathname === "/auth/login" && req.method === "POST") {
    let token: string;
    try {
      const raw = await readBody(req, 4096);
      const type = req.headers["content-type"] ?? "";
      const data = type.includes("application/json")
        ? JSON.parse(raw)
        : Object.fromEntries(new URLSearchParams(raw));
      const parsed = loginBody.safeParse(data);
      if (!parsed.success) {
        json(res, 400, { error: parsed.error.issues[0]?.message ?? "invalid request" });
        return true;
      }
      token = parsed.data.token;
    } catch {
      json(res, 400, { error: 'send the token as JSON {"token": "..."}' });
      return true;
    }
    if (!(await auth.verifyAdminToken(token))) {
      // A small delay makes online guessing (already hopeless against 256 bits) slower still.
      await new Promise((r) => setTimeout(r, 300));
      json(res, 401, { error: "that token is not valid" });
      return true;
    }
    const session = await auth.createSession();
    res.writeHead(204, { "set-cookie": sessionCookie(session.cookie, session.maxAgeSeconds, secureCookies) });
    res.end();
    return true;
  }
  if (url.pathname === "/auth/ticket" && req.method === "GET") {
    if (!(await auth.redeemLoginTicket(url.searchParams.get("t") ?? ""))) {
      res.writeHead(303, { location: "/login?expired=1" });
      res.end();
      return true;
    }
    const session = await auth.createSession();
    res.writeHead(303, {
      location: "/",
      "set-cookie": sessionCookie(session.cookie, session.maxAgeSeconds, secureCookies),
    });
    res.end();
    return true;
  }
  if (url.pathname === "/auth/logout" && req.method === "POST") {
    const cookie = readCookie(req, SESSION_COOKIE);
    if (cookie) await auth.endSession(cookie);
    res.writeHead(204, { "set-cookie": clearedSessionCookie() });
    res.end();
    return true;
  }
  return false;
}

import type { IncomingMessage } from "node:http";
import { z } from "zod";
import { normalEmail } from "../auth/accounts";
import { guestName } from "../auth/guest-name";
import { MAX_PASSWORD_LENGTH } from "../auth/password-rules";
import type { PeopleChanges } from "../auth/people-changes";
import { startSession } from "./auth-routes";
import { FailureBackoff } from "./failure-backoff";
import { json, jsonBody } from "./http-answers";
import { HttpRefusal } from "./http-errors";
import type { HttpRoute } from "./http-routes";
import { recordSignIn, recordSignInFailed, type SignInRecordDeps } from "./sign-in-record";

/** One answer for an unknown address and a wrong password, so signing in tells no one who has an account. */
export const PASSWORD_REFUSED = "that e-mail address and password do not match an account";
/** One answer for an unknown, used or expired invitation or reset link. */
export const INVITE_REFUSED =
  "this link cannot be used: it was already used, has expired or never existed; ask an administrator for a new one";
export const ACCOUNT_SUSPENDED = "your account is suspended; ask an administrator to lift the suspension";

const password = z.string().min(1, "enter your password").max(MAX_PASSWORD_LENGTH, PASSWORD_REFUSED);
const passwordBody = z.object({
  email: z.string().trim().min(1, "enter your e-mail address").max(320, PASSWORD_REFUSED),
  password,
});
const secretBody = z.object({ secret: z.string().max(200) });
// The display name follows the guest-name rules (visible, not posing as "Owner" or "Agent").
const acceptBody = secretBody.extend({ displayName: guestName.optional(), password });

export interface PasswordRouteDeps extends SignInRecordDeps {
  secureCookies: boolean;
  /** Holds back wrong link secrets; shared with the share links, so guessers get one allowance for both. */
  secretGuesses: FailureBackoff;
  /** An invitation used makes an account. */
  peopleChanges: Pick<PeopleChanges, "announce">;
}

/**
 * `/auth/password` (sign in with e-mail and password), `/auth/invite/preview` (what an invitation
 * or reset link is for) and `/auth/invite` (use it: set the password, and be signed in).
 * Wrong passwords are held back per client address and per account (failure-backoff.ts, one
 * after the other: an address's attempts reach the account's queue one at a time), so neither
 * many accounts from one address nor one account from many addresses can be tried quickly. An
 * account's failures are counted in the database, so spreading tries over instances gains nothing.
 */
export function passwordRoutes(deps: PasswordRouteDeps): HttpRoute[] {
  const { auth, secureCookies } = deps;
  const addresses = new FailureBackoff(undefined, {
    oneClient: "too many sign-ins from your address are waiting for an answer; wait for them first",
    everyone: "too many sign-ins are waiting for an answer right now; try again in a minute",
  });
  const accounts = new FailureBackoff(
    undefined,
    {
      oneClient: "too many sign-ins to this account are waiting for an answer; try again in a minute",
      everyone: "too many sign-ins are waiting for an answer right now; try again in a minute",
    },
    auth.signInFailures,
  );
  const address = (req: IncomingMessage) => req.socket.remoteAddress ?? "unknown";
  const gone = (req: IncomingMessage) => () => req.socket.destroyed;
  const linkInTurn = <T>(req: IncomingMessage, lookup: () => Promise<T | null>) =>
    deps.secretGuesses.run(address(req), lookup, gone(req));
  return [
    {
      method: "POST",
      path: "/auth/password",
      access: "anyone",
      async handle({ req, res }) {
        const body = await jsonBody(req, passwordBody);
        const check = () => auth.passwords.check(body.email, body.password);
        const account = await addresses.run(
          address(req),
          () => accounts.run(normalEmail(body.email), check, gone(req)),
          gone(req),
        );
        if (!account || account.suspended) {
          // Who they tried to be, never what they tried it with.
          const reason = account ? "suspended" : "wrong e-mail address or password";
          recordSignInFailed(deps.audit, req, "password", { target: normalEmail(body.email), reason });
          throw account ? new HttpRefusal(403, ACCOUNT_SUSPENDED) : new HttpRefusal(401, PASSWORD_REFUSED);
        }
        const session = await auth.createSession(account.userId);
        await recordSignIn(deps, req, session.cookie, "auth.signed_in", "password");
        startSession(res, 204, session, secureCookies);
      },
    },
    {
      method: "POST",
      path: "/auth/invite/preview",
      access: "anyone",
      async handle({ req, res }) {
        const body = await jsonBody(req, secretBody);
        const preview = await linkInTurn(req, () => auth.invites.preview(body.secret));
        if (!preview) throw new HttpRefusal(403, INVITE_REFUSED);
        json(res, 200, preview);
      },
    },
    {
      method: "POST",
      path: "/auth/invite",
      access: "anyone",
      async handle({ req, res }) {
        const body = await jsonBody(req, acceptBody);
        const accepted = await linkInTurn(req, () =>
          auth.invites.accept(body.secret, { displayName: body.displayName, password: body.password }),
        );
        if (!accepted) {
          recordSignInFailed(deps.audit, req, "invite link");
          throw new HttpRefusal(403, INVITE_REFUSED);
        }
        if (accepted.kind === "invite") deps.peopleChanges.announce();
        const session = await auth.createSession(accepted.userId);
        const action = accepted.kind === "invite" ? "user.joined" : "user.password_reset";
        await recordSignIn(deps, req, session.cookie, action, `${accepted.kind} link`);
        startSession(res, 204, session, secureCookies);
      },
    },
  ];
}

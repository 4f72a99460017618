import type { OidcConfig } from "../config/oidc-config";
import type { Db } from "../db/database";
import { Accounts } from "./accounts";
import { OidcFlows } from "./oidc-flows";
import { OidcIdentities } from "./oidc-identities";
import { OidcSignIn } from "./oidc-sign-in";

/** Signing in with OIDC on this database, its provider's discovery started in the background. */
export function startOidcSignIn(config: OidcConfig, db: Db, log: (line: string) => void): OidcSignIn {
  const identities = new OidcIdentities(db, new Accounts(db), config.adminEmails);
  const signIn = new OidcSignIn(config, new OidcFlows(db), identities, log);
  signIn.start();
  return signIn;
}

import type { Db } from "../db/database";
import { type Accounts, normalEmail, type User } from "./accounts";
import { OidcRefusal } from "./oidc-refusal";

/** Who the provider says signed in, once its tokens were verified. */
export interface OidcPerson {
  issuer: string;
  subject: string;
  /** Verified by the provider (the caller checked `email_verified` and the domain). */
  email: string;
  name: string | undefined;
}

const NAME_MAX = 100;

/**
 * The accounts of people who sign in with an OpenID provider, linked by (issuer, subject): the
 * provider's stable id, not the e-mail address, which a person may change there. A first sign-in
 * links the account of that address (unless it is linked to another subject of this provider
 * already) or makes a member account, an admin when the address is one of `adminEmails`.
 */
export class OidcIdentities {
  constructor(
    private readonly db: Db,
    private readonly accounts: Accounts,
    private readonly adminEmails: readonly string[],
  ) {}

  async signIn(person: OidcPerson): Promise<User> {
    const user = (await this.linked(person)) ?? (await this.firstSignIn(person));
    if (user.suspendedAt !== null) throw new OidcRefusal("suspended", `${user.id} is suspended`);
    return user;
  }

  private async linked(person: OidcPerson): Promise<User | null> {
    const row = await this.db
      .selectFrom("user_identities")
      .select("user_id")
      .where("issuer", "=", person.issuer)
      .where("subject", "=", person.subject)
      .executeTakeFirst();
    return row ? this.accounts.byId(row.user_id) : null;
  }

  private async firstSignIn(person: OidcPerson): Promise<User> {
    const email = normalEmail(person.email);
    const existing = await this.accounts.byEmail(email);
    if (existing && (await this.hasIdentityOf(existing.id, person.issuer))) {
      // Another account at this provider has had this address: linking would hand it over.
      throw new OidcRefusal("linked", `${existing.id} is linked to another subject of ${person.issuer}`);
    }
    const user =
      existing ??
      (await this.accounts.create({
        email,
        displayName: displayName(person.name, email),
        siteRole: this.adminEmails.includes(email) ? "admin" : "member",
      }));
    // The primary key and (user_id, issuer) make a concurrent first sign-in fail, not link twice.
    await this.db
      .insertInto("user_identities")
      .values({
        issuer: person.issuer,
        subject: person.subject,
        user_id: user.id,
        created_at: new Date().toISOString(),
      })
      .execute();
    return user;
  }

  private async hasIdentityOf(userId: string, issuer: string): Promise<boolean> {
    const row = await this.db
      .selectFrom("user_identities")
      .select("subject")
      .where("user_id", "=", userId)
      .where("issuer", "=", issuer)
      .executeTakeFirst();
    return row !== undefined;
  }
}

/** The `name` claim, else the address's local part; bounded, on one line. */
function displayName(name: string | undefined, email: string): string {
  const chosen = name?.replace(/\s+/g, " ").trim() || email.split("@")[0] || email;
  return chosen.slice(0, NAME_MAX);
}

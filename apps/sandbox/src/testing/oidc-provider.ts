import http from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";

/** A person the test provider knows; the login typed in its form is the key of `TEST_PEOPLE`. */
export interface TestPerson {
  email: string;
  email_verified: boolean;
  name?: string;
}

/** The test provider's people: sign in with the key as login and any password. */
export const TEST_PEOPLE = {
  ada: { email: "ada@example.com", email_verified: true, name: "Ada Lovelace" },
  grace: { email: "Grace@Example.com", email_verified: true, name: "Grace Hopper" },
  unverified: { email: "mallory@example.com", email_verified: false, name: "Mallory" },
  foreign: { email: "eve@elsewhere.test", email_verified: true, name: "Eve" },
} satisfies Record<string, TestPerson>;

export const TEST_CLIENT = { id: "coder-test", secret: "coder-test-secret-that-is-long-enough-for-hs256" };

export interface TestOidcProvider {
  issuer: string;
  /** The service's environment for signing in with this provider. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * A real OpenID provider (`oidc-provider`, a certified implementation) on a loopback port, with
 * one confidential client allowed to return to `redirectUris` and its own interactive login form
 * (devInteractions: the provider's real login and consent pages, any password). `port`: a given
 * one (a provider coming back where the service expects it), else a free one.
 */
export async function startOidcProvider(redirectUris: string[], port = 0): Promise<TestOidcProvider> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: TEST_CLIENT.id,
        client_secret: TEST_CLIENT.secret,
        redirect_uris: redirectUris,
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_post",
      },
    ],
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    cookies: { keys: ["test-provider-cookie-key"] },
    features: { devInteractions: { enabled: true } },
    async findAccount(_ctx, id) {
      const person = (TEST_PEOPLE as Record<string, TestPerson>)[id];
      if (!person) return undefined;
      return { accountId: id, claims: async () => ({ sub: id, ...person }) };
    },
  });
  server.on("request", provider.callback());
  return {
    issuer,
    env: {
      CODER_OIDC_ISSUER: issuer,
      CODER_OIDC_CLIENT_ID: TEST_CLIENT.id,
      CODER_OIDC_CLIENT_SECRET: TEST_CLIENT.secret,
      CODER_OIDC_NAME: "Test Provider",
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

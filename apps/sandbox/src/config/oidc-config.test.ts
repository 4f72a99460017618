import { describe, expect, it } from "vitest";
import { loadConfig } from "../config";

const OIDC = {
  CODER_IMAGE: "img",
  CODER_OIDC_ISSUER: "https://id.example.com",
  CODER_OIDC_CLIENT_ID: "coder",
  CODER_OIDC_CLIENT_SECRET: "s3cret",
};

describe("the OIDC configuration", () => {
  it("is off when none of it is set", () => {
    expect(loadConfig({ CODER_IMAGE: "img" }).oidc).toBeUndefined();
  });

  it("reads the provider, the allowed domains and admin addresses lower-cased, and names the button after the issuer", () => {
    const { oidc } = loadConfig({
      ...OIDC,
      CODER_OIDC_ALLOWED_DOMAINS: " Example.com, ,team.example.org",
      CODER_OIDC_ADMIN_EMAILS: "Boss@Example.com",
    });
    expect(oidc).toMatchObject({
      clientId: "coder",
      allowedDomains: ["example.com", "team.example.org"],
      adminEmails: ["boss@example.com"],
      name: "id.example.com",
    });
    expect(loadConfig({ ...OIDC, CODER_OIDC_NAME: "Acme SSO" }).oidc?.name).toBe("Acme SSO");
  });

  it("stops the start when it is partial, naming each variable missing", () => {
    expect(() => loadConfig({ CODER_IMAGE: "img", CODER_OIDC_ISSUER: OIDC.CODER_OIDC_ISSUER })).toThrow(
      /CODER_OIDC_CLIENT_ID[\s\S]*CODER_OIDC_CLIENT_SECRET/,
    );
  });

  it("refuses a plain-http issuer other than one on this machine, and a malformed domain or address", () => {
    expect(() => loadConfig({ ...OIDC, CODER_OIDC_ISSUER: "http://id.example.com" })).toThrow(
      /CODER_OIDC_ISSUER/,
    );
    expect(loadConfig({ ...OIDC, CODER_OIDC_ISSUER: "http://127.0.0.1:9000" }).oidc?.issuer.host).toBe(
      "127.0.0.1:9000",
    );
    expect(() => loadConfig({ ...OIDC, CODER_OIDC_ALLOWED_DOMAINS: "@example.com" })).toThrow(
      /CODER_OIDC_ALLOWED_DOMAINS/,
    );
    expect(() => loadConfig({ ...OIDC, CODER_OIDC_ADMIN_EMAILS: "boss" })).toThrow(/CODER_OIDC_ADMIN_EMAILS/);
  });

  it("takes the public URL as an origin", () => {
    expect(loadConfig({ CODER_IMAGE: "img", CODER_PUBLIC_URL: "https://ide.example/" }).publicUrl).toBe(
      "https://ide.example",
    );
    expect(() => loadConfig({ CODER_IMAGE: "img", CODER_PUBLIC_URL: "https://ide.example/x" })).toThrow(
      /CODER_PUBLIC_URL/,
    );
  });
});

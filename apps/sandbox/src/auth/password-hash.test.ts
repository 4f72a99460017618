import { parseOptions } from "@node-rs/argon2";
import { describe, expect, it } from "vitest";
import { ARGON2ID, hashPassword, passwordMatches, STAND_IN_HASH } from "./password-hash";

describe("password hashes", () => {
  it("are argon2id with the OWASP setting, salted, and match only their password", async () => {
    const [one, two] = await Promise.all([
      hashPassword("violet-harbour-lantern"),
      hashPassword("violet-harbour-lantern"),
    ]);
    expect(one).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(one).not.toBe(two);
    expect(await passwordMatches(one, "violet-harbour-lantern")).toBe(true);
    expect(await passwordMatches(one, "violet-harbour-lanterN")).toBe(false);
  });

  it("check the stand-in, with the same setting, when there is no hash, and never match then", async () => {
    expect(parseOptions(STAND_IN_HASH)).toMatchObject({ algorithm: 2, ...ARGON2ID });
    expect(await passwordMatches(null, "violet-harbour-lantern")).toBe(false);
  });
});

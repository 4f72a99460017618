import { describe, expect, it } from "vitest";
import type { Principal } from "../auth/principal";
import { commitAuthor } from "./commit-author";

const user: Principal = {
  kind: "user",
  sessionId: "s",
  userId: "u1",
  name: "Ada Lovelace",
  siteRole: "member",
};
const guest: Principal = {
  kind: "guest",
  sessionId: "s",
  shareId: "sh",
  workspaceId: "ws1",
  name: "Vera <v@evil>\nCo-authored-by: x",
  role: "editor",
};

describe("commitAuthor", () => {
  it("is the account's name and e-mail address for a user", async () => {
    expect(await commitAuthor(user, "ws1", async () => "ada@example.com")).toEqual({
      name: "Ada Lovelace",
      email: "ada@example.com",
    });
  });

  it("gives a guest, or an account without an address, a placeholder address under .invalid", async () => {
    expect(await commitAuthor(guest, "ws1", async () => "never asked")).toEqual({
      name: "Vera v@evilCo-authored-by: x",
      email: "guest@ws1.coder.invalid",
    });
    expect((await commitAuthor(user, "ws1", async () => null)).email).toBe("user-u1@coder.invalid");
  });
});

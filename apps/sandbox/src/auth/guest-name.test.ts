import { describe, expect, it } from "vitest";
import { guestName, lookalikeOf } from "./guest-name";

/** The name as stored, or the sentence a guest reads when it is refused. */
function judge(name: string): string {
  const parsed = guestName.safeParse(name);
  return parsed.success ? parsed.data : `refused: ${parsed.error.issues[0]?.message}`;
}

describe("the names guests may take", () => {
  it("refuses the owner's and the agent's names, in any case or look-alike spelling", () => {
    for (const name of [
      "Owner",
      "owner",
      "AGENT",
      "Agent",
      "\u202eOwner",
      "\u041ewner",
      "0wner",
      "Own\u3164er",
      "\u0410g\u0435nt",
    ])
      expect(judge(name), name).toMatch(
        /^refused: ".+" is how the service shows the workspace's (owner|agent)/,
      );
  });

  it("refuses names that draw nothing", () => {
    for (const name of [
      "\u3164",
      "\u2800\u2800",
      "\u115f\u1160",
      "\uffa0",
      "\u200b\u202e",
      "\u0301",
      " \u3000 ",
    ])
      expect(judge(name), JSON.stringify(name)).toMatch(
        /^refused: (a name needs at least one visible|enter your name)/,
      );
  });

  it("accepts ordinary names: accents, other scripts, emoji", () => {
    for (const name of ["Ada", "Zoë Müller", "李雷", "Мария", "أحمد", "🦊 Fox", "O'Brien", "Ownership"])
      expect(judge(name), name).toBe(name);
  });

  it("finds the name of someone present that a new name looks like", () => {
    expect(lookalikeOf("\u0410da", ["Grace", "Ada"])).toBe("Ada");
    expect(lookalikeOf("ADA", ["Ada"])).toBe("Ada");
    expect(lookalikeOf("Adam", ["Ada"])).toBeUndefined();
  });
});

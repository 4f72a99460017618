import { describe, expect, it } from "vitest";
import { answeredBy } from "./answered-by";

const ada = { kind: "guest" as const, name: "Ada" };
const owner = { kind: "owner" as const, name: "Owner" };

describe("who answered for a call", () => {
  it("names who approved or rejected it, and marks a guest as a guest", () => {
    expect(answeredBy({ approval: { reply: "once", by: ada } })).toBe("Approved by Ada (guest)");
    expect(answeredBy({ approval: { reply: "always", by: ada } })).toBe(
      "Approved for this session by Ada (guest)",
    );
    expect(answeredBy({ approval: { reply: "reject", by: owner } })).toBe("Rejected by Owner");
    expect(answeredBy({ approval: { reply: "once" } })).toBe("Approved");
  });

  it("names who answered or declined a question", () => {
    expect(answeredBy({ answeredBy: ada })).toBe("Answered by Ada (guest)");
    const declined = {
      ok: false,
      error: { code: "rejected" as const, message: "the person chose not to answer" },
    };
    expect(answeredBy({ answeredBy: owner, result: declined })).toBe("Declined by Owner");
  });

  it("says nothing when no one was asked", () => {
    expect(answeredBy({})).toBeNull();
  });
});

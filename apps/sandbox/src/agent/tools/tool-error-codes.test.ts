import { toolErrorCode } from "@coder/protocol";
import { describe, expect, it } from "vitest";
import { serviceErrorKinds } from "../../errors/service-error";
import { toolFailureOf } from "./tool-error-codes";

describe("the tool error of a service error", () => {
  it("is a code of the tool contract for every kind", () => {
    for (const kind of serviceErrorKinds) {
      expect(toolErrorCode.safeParse(toolFailureOf[kind].code).success, kind).toBe(true);
    }
  });

  it("tells the model to ask the person when only they can fix it", () => {
    expect(toolFailureOf.precondition).toEqual({
      code: "unavailable",
      hint: "ask the person: only they can change that",
    });
  });
});

import { describe, expect, it } from "vitest";
import { ServiceError } from "./service-error";

class ShelfEmptyError extends ServiceError {
  constructor() {
    super("not_found", "the shelf is empty");
  }
}

describe("a service error", () => {
  it("is named after its class and keeps its kind and sentence", () => {
    const error = new ShelfEmptyError();
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({
      name: "ShelfEmptyError",
      kind: "not_found",
      message: "the shelf is empty",
    });
    expect(String(error.stack)).toMatch(/^ShelfEmptyError: the shelf is empty/);
  });
});

import { describe, expect, it } from "vitest";
import { canStart, canStop, isInProgress, problemOf, statusLabel } from "./workspace-status";

describe("workspace status", () => {
  it("shows progress while the service is creating, starting or stopping", () => {
    expect(isInProgress("creating")).toBe(true);
    expect(isInProgress("starting")).toBe(true);
    expect(isInProgress("stopping")).toBe(true);
    expect(isInProgress("running")).toBe(false);
    expect(statusLabel("creating")).toBe("Creating…");
  });

  it("offers start for a stopped or failed workspace and stop for a running one", () => {
    expect(canStart("stopped")).toBe(true);
    expect(canStart("error")).toBe(true);
    expect(canStart("running")).toBe(false);
    expect(canStop("running")).toBe(true);
    expect(canStop("starting")).toBe(false);
  });

  it("shows the service's reason only for a failed or missing workspace", () => {
    expect(problemOf({ status: "error", detail: "image not found" })).toBe("image not found");
    expect(problemOf({ status: "missing", detail: "the container is gone" })).toBe("the container is gone");
    expect(problemOf({ status: "creating", detail: "the container is gone" })).toBeUndefined();
  });
});

import { describe, expect, it } from "vitest";
import {
  canOpen,
  canStart,
  canStop,
  idleStopNote,
  isInProgress,
  problemOf,
  statusLabel,
} from "./workspace-status";

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

  it("shows the service's reason only for a failed, missing or stopped workspace", () => {
    expect(problemOf({ status: "error", detail: "image not found" })).toBe("image not found");
    expect(problemOf({ status: "missing", detail: "the container is gone" })).toBe("the container is gone");
    const drained = "stopped because the machine it runs on (node abc) is being drained";
    expect(problemOf({ status: "stopped", detail: drained })).toBe(drained);
    expect(problemOf({ status: "creating", detail: "the container is gone" })).toBeUndefined();
  });

  it("opens a workspace stopped for being idle (which starts it) and says why it stopped", () => {
    const idle = { status: "stopped" as const, idleStoppedAt: "2026-11-23T10:00:00.000Z" };
    expect(canOpen(idle)).toBe(true);
    expect(idleStopNote(idle)).toMatch(/^stopped for being idle since .*; opening it starts it again$/);
    expect(canOpen({ status: "stopped" })).toBe(false);
    expect(idleStopNote({ status: "stopped" })).toBeUndefined();
    expect(canOpen({ status: "running" })).toBe(true);
  });
});

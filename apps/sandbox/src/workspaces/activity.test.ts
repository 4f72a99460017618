import { describe, expect, it } from "vitest";
import { WorkspaceActivity } from "./activity";

describe("workspace activity", () => {
  const clock = () => {
    let now = 1_000;
    return {
      now: () => now,
      pass: (ms: number) => {
        now += ms;
      },
    };
  };

  it("starts a workspace's idle clock when it is first asked about, and a call restarts it", () => {
    const c = clock();
    const activity = new WorkspaceActivity(c.now);
    expect(activity.idleMs("w")).toBe(0);
    c.pass(500);
    expect(activity.idleMs("w")).toBe(500);
    activity.touch("w");
    c.pass(200);
    expect(activity.idleMs("w")).toBe(200);
  });

  it("counts nothing as idle while a hold lasts, and from its release on", () => {
    const c = clock();
    const activity = new WorkspaceActivity(c.now);
    const first = activity.hold("w");
    const second = activity.hold("w");
    c.pass(10_000);
    first();
    first(); // releasing twice releases once
    c.pass(10_000);
    expect(activity.idleMs("w")).toBe(0);
    second();
    c.pass(300);
    expect(activity.idleMs("w")).toBe(300);
  });

  it("asks every added source, so a live document can keep its workspace in use", () => {
    const c = clock();
    const activity = new WorkspaceActivity(c.now);
    const live = new Set(["w"]);
    activity.addSource({ isActive: (id) => live.has(id) });
    activity.touch("w");
    activity.touch("other");
    c.pass(5_000);
    expect(activity.idleMs("w")).toBe(0);
    expect(activity.idleMs("other")).toBe(5_000);
    live.delete("w");
    c.pass(100);
    expect(activity.idleMs("w")).toBe(100);
  });

  it("forgets the clocks of workspaces that no longer run", () => {
    const c = clock();
    const activity = new WorkspaceActivity(c.now);
    activity.touch("gone");
    activity.touch("kept");
    c.pass(1_000);
    activity.retainOnly(new Set(["kept"]));
    expect(activity.idleMs("kept")).toBe(1_000);
    // A forgotten workspace's clock starts again when it is next asked about.
    expect(activity.idleMs("gone")).toBe(0);
  });
});

import { describe, expect, it } from "vitest";
import { ToastStore } from "./toast-store";

describe("ToastStore", () => {
  it("shows each raised error until it is dismissed", () => {
    const store = new ToastStore();
    let notified = 0;
    store.subscribe(() => notified++);
    const id = store.error("the workspace is not running");
    expect(store.snapshot().map((t) => t.message)).toEqual(["the workspace is not running"]);
    store.dismiss(id);
    expect(store.snapshot()).toEqual([]);
    expect(notified).toBe(2);
  });

  it("shows a repeated message once", () => {
    const store = new ToastStore();
    const first = store.error("offline");
    expect(store.error("offline")).toBe(first);
    expect(store.snapshot()).toHaveLength(1);
  });

  it("keeps only the latest few so a burst of errors cannot cover the page", () => {
    const store = new ToastStore();
    for (let i = 0; i < 10; i++) store.error(`error ${i}`);
    expect(store.snapshot().map((t) => t.message)).toEqual(["error 6", "error 7", "error 8", "error 9"]);
  });

  it("tells news with its action, and shows the same news once", () => {
    const store = new ToastStore();
    let opened = 0;
    const id = store.news("Port 5173 (node) is listening", { label: "Open", run: () => opened++ });
    expect(store.news("Port 5173 (node) is listening")).toBe(id);
    const [toast] = store.snapshot();
    expect(toast).toMatchObject({ kind: "news", message: "Port 5173 (node) is listening" });
    toast?.action?.run();
    expect(opened).toBe(1);
  });

  it("stops notifying a listener that unsubscribed", () => {
    const store = new ToastStore();
    let notified = 0;
    const unsubscribe = store.subscribe(() => notified++);
    unsubscribe();
    store.error("x");
    expect(notified).toBe(0);
  });
});

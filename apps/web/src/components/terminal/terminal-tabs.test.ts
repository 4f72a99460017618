import { describe, expect, it } from "vitest";
import { firstTerminalTabs, loadTerminalNames, saveTerminalNames } from "./terminal-tabs";

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (key: string) => data.get(key) ?? null,
    setItem: (key: string, value: string) => void data.set(key, value),
  };
}

describe("terminal tabs", () => {
  it("opens one terminal named main the first time, when none is open in the workspace", () => {
    expect(loadTerminalNames(memoryStorage(), "ws1")).toBeNull();
    expect(firstTerminalTabs([])).toEqual(["main"]);
  });

  it("shows the terminals already open in the workspace the first time, as someone joining would expect", () => {
    expect(firstTerminalTabs(["main", "build"])).toEqual(["main", "build"]);
  });

  it("reopens the tabs saved for the same workspace after a reload", () => {
    const storage = memoryStorage();
    saveTerminalNames(storage, "ws1", ["main", "t1"]);
    saveTerminalNames(storage, "ws2", ["t3"]);
    expect(loadTerminalNames(storage, "ws1")).toEqual(["main", "t1"]);
    expect(loadTerminalNames(storage, "ws2")).toEqual(["t3"]);
  });

  it("ignores saved data that is corrupt or names a terminal the service would refuse", () => {
    expect(loadTerminalNames(memoryStorage({ "coder.terminals.ws1": "{not json" }), "ws1")).toBeNull();
    expect(
      loadTerminalNames(
        memoryStorage({ "coder.terminals.ws1": JSON.stringify(["ok", "bad name", 7, "ok"]) }),
        "ws1",
      ),
    ).toEqual(["ok"]);
    expect(loadTerminalNames(memoryStorage({ "coder.terminals.ws1": "[]" }), "ws1")).toBeNull();
  });

  it("still works when storage refuses to save", () => {
    const storage = {
      getItem: () => null,
      setItem: () => {
        throw new Error("QuotaExceededError");
      },
    };
    expect(() => saveTerminalNames(storage, "ws1", ["main"])).not.toThrow();
  });
});

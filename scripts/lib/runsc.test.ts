import { describe, expect, it } from "vitest";
import { RUNSC_RUNTIME, withRunscRuntime } from "./runsc.mjs";

describe("withRunscRuntime", () => {
  it("registers runsc without network in a missing or empty daemon.json", () => {
    const updated = withRunscRuntime("");
    expect(JSON.parse(updated ?? "")).toEqual({
      runtimes: { runsc: { path: "/usr/bin/runsc", runtimeArgs: ["--network=none"] } },
    });
  });

  it("keeps the engine's other settings and runtimes", () => {
    const current = JSON.stringify({ "log-level": "warn", runtimes: { kata: { path: "/usr/bin/kata" } } });
    expect(JSON.parse(withRunscRuntime(current) ?? "")).toEqual({
      "log-level": "warn",
      runtimes: { kata: { path: "/usr/bin/kata" }, runsc: RUNSC_RUNTIME },
    });
  });

  it("replaces a runsc entry that differs", () => {
    const current = JSON.stringify({ runtimes: { runsc: { path: "/usr/local/bin/runsc" } } });
    expect(JSON.parse(withRunscRuntime(current) ?? "").runtimes.runsc).toEqual(RUNSC_RUNTIME);
  });

  it("reports no change when runsc is already registered, so the engine is left alone", () => {
    const current = JSON.stringify({ runtimes: { runsc: RUNSC_RUNTIME } });
    expect(withRunscRuntime(current)).toBeNull();
  });

  it("refuses to overwrite a daemon.json it cannot parse", () => {
    expect(() => withRunscRuntime("{ not json")).toThrow(/daemon.json is not valid JSON/);
  });
});

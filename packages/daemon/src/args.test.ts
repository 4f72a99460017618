import { describe, expect, it } from "vitest";
import { parseDaemonArgs, UsageError } from "./args";

describe("the daemon's command line", () => {
  it("defaults the root to the current folder and the spill folder to /tmp", () => {
    expect(parseDaemonArgs([], "/work")).toEqual({
      root: "/work",
      spillDir: "/tmp/coder-tool-output",
      toolsConfig: {},
    });
  });

  it("takes the root, spill folder and a JSON tools config", () => {
    const args = parseDaemonArgs(
      ["--root", "/workspace", "--spill-dir", "/tmp/out", "--config", '{"ripgrep":false}'],
      "/",
    );
    expect(args).toEqual({ root: "/workspace", spillDir: "/tmp/out", toolsConfig: { ripgrep: false } });
  });

  it("takes another snapshot store", () => {
    expect(parseDaemonArgs(["--snapshot-dir", "/tmp/snaps.git"], "/").snapshotDir).toBe("/tmp/snaps.git");
  });

  it("refuses unknown options, stray arguments and a config that is not a JSON object", () => {
    for (const argv of [["--nope"], ["extra"], ["--config", "{oops"], ["--config", "[1]"], ["--root"]]) {
      expect(() => parseDaemonArgs(argv, "/"), argv.join(" ")).toThrow(UsageError);
    }
  });
});

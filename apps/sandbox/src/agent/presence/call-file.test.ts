import { describe, expect, it } from "vitest";
import { fileOfCall } from "./call-file";

describe("the file presence shows the agent at", () => {
  it("is the file an edit changes, named as people name it", () => {
    expect(fileOfCall("edit", { path: "/workspace/src/a.ts", old_string: "a", new_string: "b" })).toBe(
      "src/a.ts",
    );
    expect(fileOfCall("write", { path: "./notes.txt", content: "x" })).toBe("notes.txt");
  });

  it("is the file a read reads", () => {
    expect(fileOfCall("read", { path: "src/b.ts" })).toBe("src/b.ts");
  });

  it("is none for a call that may reach any file or names one outside the workspace", () => {
    expect(fileOfCall("bash", { command: "make" })).toBeNull();
    expect(fileOfCall("read", { path: "/etc/passwd" })).toBeNull();
    expect(fileOfCall("read", { path: "../x" })).toBeNull();
    expect(fileOfCall("read", {})).toBeNull();
  });
});

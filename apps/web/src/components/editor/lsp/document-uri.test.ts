import { describe, expect, it } from "vitest";
import { pathForUri, uriForPath } from "./document-uri";

describe("document URIs", () => {
  it("names a workspace file by its place in the container", () => {
    expect(uriForPath("src/main.py")).toBe("file:///workspace/src/main.py");
    expect(uriForPath("./a//b.sh")).toBe("file:///workspace/a/b.sh");
  });

  it("encodes spaces and other reserved characters in each segment", () => {
    expect(uriForPath("my dir/a#1.py")).toBe("file:///workspace/my%20dir/a%231.py");
  });

  it("maps a server's URI back to the workspace path", () => {
    expect(pathForUri("file:///workspace/my%20dir/a%231.py")).toBe("my dir/a#1.py");
    expect(pathForUri(uriForPath("src/ünï.py"))).toBe("src/ünï.py");
  });

  it("refuses files outside the workspace", () => {
    expect(pathForUri("file:///usr/lib/python3.11/os.py")).toBeNull();
    expect(pathForUri("file:///workspace-other/a.py")).toBeNull();
    expect(pathForUri("file:///workspace/../etc/passwd")).toBeNull();
    expect(pathForUri("file:///workspace/")).toBeNull();
    expect(pathForUri("file:///workspace/%E0%A4%A")).toBeNull();
  });
});

import type { PreviewPort } from "@coder/protocol";
import { describe, expect, it } from "vitest";
import { canOpenPort, newlyListening, portLabel } from "./port-rows";

const port = (n: number, process: string | null = "node"): PreviewPort => ({
  port: n,
  process,
  visibility: "private",
  url: `http://${n}-w1.localhost:3000/`,
});

describe("the Ports panel's rules", () => {
  it("offers Open to owners and editors for every port, to a viewer only for shared ones", () => {
    expect(canOpenPort("owner", "private")).toBe(true);
    expect(canOpenPort("editor", "private")).toBe(true);
    expect(canOpenPort("viewer", "private")).toBe(false);
    expect(canOpenPort("viewer", "workspace")).toBe(true);
    expect(canOpenPort("viewer", "public")).toBe(true);
  });

  it("toasts only ports that started listening after the page first saw the list", () => {
    expect(newlyListening(undefined, [port(5173)])).toEqual([]);
    expect(newlyListening([port(3000)], [port(8080), port(3000), port(5173)]).map((p) => p.port)).toEqual([
      5173, 8080,
    ]);
    expect(newlyListening([port(3000), port(5173)], [port(3000)])).toEqual([]);
  });

  it("names a port with its process when the daemon knows it", () => {
    expect(portLabel(port(5173))).toBe("5173 (node)");
    expect(portLabel(port(8000, null))).toBe("8000");
  });
});

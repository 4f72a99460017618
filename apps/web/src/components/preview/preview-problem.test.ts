import { describe, expect, it } from "vitest";
import { previewProblem } from "./preview-problem";

const fine = { port: 5173, running: true, listening: true, openable: true, openError: null };

describe("what the preview pane says instead of the app", () => {
  it("shows the app when the workspace runs, the port listens and the person may open it", () => {
    expect(previewProblem(fine)).toBeNull();
  });

  it("says the workspace is stopped before anything else", () => {
    expect(previewProblem({ ...fine, running: false, listening: false })).toBe(
      "The workspace is stopped: start it to see this preview.",
    );
  });

  it("says nothing listens on the port once its server stopped or closed", () => {
    expect(previewProblem({ ...fine, listening: false })).toMatch(/^Nothing listens on port 5173 now/);
  });

  it("tells a viewer a port went private, and passes on why an open failed", () => {
    expect(previewProblem({ ...fine, openable: false })).toBe(
      "Port 5173 is private now: only the owner and editors may open it.",
    );
    expect(previewProblem({ ...fine, openError: new Error("the workspace is busy") })).toBe(
      "Could not open port 5173: the workspace is busy",
    );
  });
});

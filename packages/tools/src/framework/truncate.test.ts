import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MAX_SPILL_BYTES, spillToFolder } from "./spill";
import { MAX_OUTPUT_BYTES, truncateOutput } from "./truncate";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "coder-truncate-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const save = (callId: string) => (text: string) => spillToFolder(dir)(callId, text);

describe("truncateOutput", () => {
  it("returns short text unchanged and spills nothing", async () => {
    expect(await truncateOutput("a\nb", save("c1"))).toEqual({ text: "a\nb" });
  });

  it("cuts text over 50 KB at a line boundary and saves the whole", async () => {
    const line = "y".repeat(999);
    const text = Array.from({ length: 100 }, () => line).join("\n");
    const cut = await truncateOutput(text, save("c2"));
    const shown = cut.text.slice(0, cut.text.indexOf("\n\n... output truncated"));
    expect(Buffer.byteLength(shown)).toBeLessThanOrEqual(MAX_OUTPUT_BYTES);
    expect(shown.split("\n").every((l) => l === line)).toBe(true);
    expect(readFileSync(cut.spillPath as string, "utf8")).toBe(text);
  });

  it("keeps the head of a single enormous line", async () => {
    const cut = await truncateOutput("é".repeat(100_000), save("c3"));
    expect(cut.text.startsWith("éé")).toBe(true);
    expect(cut.text).not.toContain("\uFFFD");
  });

  it("still cuts when the full text cannot be saved, and says so", async () => {
    const blocker = path.join(dir, "file");
    writeFileSync(blocker, "");
    const cut = await truncateOutput("z\n".repeat(5000), (text) => spillToFolder(blocker)("c4", text));
    expect(cut.spillPath).toBeUndefined();
    expect(cut.text).toContain("could not be saved");
  });

  it("saves only the first 8 MB of an enormous output and says so", async () => {
    const cut = await truncateOutput("w".repeat(MAX_SPILL_BYTES + 1000), save("c5"));
    expect(readFileSync(cut.spillPath as string, "utf8").length).toBe(MAX_SPILL_BYTES);
    expect(cut.text).toContain("The first 8 MB of the output was saved to");
  });
});

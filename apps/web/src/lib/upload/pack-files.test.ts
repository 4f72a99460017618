import { describe, expect, it } from "vitest";
import { packFiles } from "./pack-files";

const text = (bytes: Uint8Array, from: number, length: number) =>
  new TextDecoder().decode(bytes.subarray(from, from + length)).replace(/\0.*$/s, "");

describe("dropped files packed for upload", () => {
  it("makes a tar of the files (each padded to whole blocks) and empty folders, ended by two zero blocks", async () => {
    const blob = packFiles([
      { path: "src/app.py", file: new File(["print(1)\n"], "app.py", { lastModified: 1_700_000_000_000 }) },
      { path: "empty", folder: true },
    ]);
    const bytes = new Uint8Array(await blob.arrayBuffer());
    expect(bytes.length).toBe(512 + 512 + 512 + 1024);
    expect(text(bytes, 0, 100)).toBe("src/app.py");
    expect(Number.parseInt(text(bytes, 124, 12), 8)).toBe(9);
    expect(Number.parseInt(text(bytes, 136, 12), 8)).toBe(1_700_000_000);
    expect(text(bytes, 512, 9)).toBe("print(1)\n");
    expect(text(bytes, 1024, 100)).toBe("empty/");
    expect(text(bytes, 1024 + 156, 1)).toBe("5");
    expect(bytes.subarray(1536).every((b) => b === 0)).toBe(true);
  });
});

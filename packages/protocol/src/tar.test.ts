import { describe, expect, it } from "vitest";
import { TAR_BLOCK, tarEnd, tarHeader, tarPadding } from "./tar";

const text = (bytes: Uint8Array, from: number, length: number) =>
  new TextDecoder().decode(bytes.subarray(from, from + length)).replace(/\0.*$/s, "");

/** Whether the header's checksum field matches its bytes (the field counted as spaces). */
function checksumHolds(header: Uint8Array): boolean {
  const copy = header.slice();
  copy.fill(0x20, 148, 156);
  return copy.reduce((sum, byte) => sum + byte, 0) === Number.parseInt(text(header, 148, 7), 8);
}

describe("tar headers for uploads", () => {
  it("writes a ustar header with octal fields and a valid checksum", () => {
    const header = tarHeader({
      name: "src/main.py",
      type: "file",
      size: 1234,
      mode: 0o755,
      mtime: 1_700_000_000,
    });
    expect(header.length).toBe(TAR_BLOCK);
    expect(text(header, 0, 100)).toBe("src/main.py");
    expect(Number.parseInt(text(header, 100, 8), 8)).toBe(0o755);
    expect(Number.parseInt(text(header, 124, 12), 8)).toBe(1234);
    expect(text(header, 156, 1)).toBe("0");
    expect(text(header, 257, 6)).toBe("ustar");
    expect(checksumHolds(header)).toBe(true);
  });

  it("puts a long or non-ASCII name into a PAX record whose length counts itself", () => {
    const name = `${"deep/".repeat(30)}Übersicht.md`;
    const blocks = tarHeader({ name, type: "file", size: 3 });
    expect(text(blocks, 156, 1)).toBe("x");
    const size = Number.parseInt(text(blocks, 124, 12), 8);
    const record = new TextDecoder().decode(blocks.subarray(TAR_BLOCK, TAR_BLOCK + size));
    expect(record).toBe(`${new TextEncoder().encode(record).length} path=${name}\n`);
    const main = blocks.subarray(blocks.length - TAR_BLOCK);
    expect(text(main, 156, 1)).toBe("0");
    expect(checksumHolds(main)).toBe(true);
    expect(blocks.length % TAR_BLOCK).toBe(0);
  });

  it("pads content to whole blocks and ends with two zero blocks", () => {
    expect(tarPadding(0).length).toBe(0);
    expect(tarPadding(1).length).toBe(511);
    expect(tarPadding(512).length).toBe(0);
    expect(tarEnd()).toEqual(new Uint8Array(1024));
  });
});

import { describe, expect, it } from "vitest";
import { PAGE_LIMITS, readPageAnswer } from "./page-answer";
import { PNG_SIGNATURE, pngSize } from "./png-size";

const page = {
  ok: true,
  url: "http://127.0.0.1:3000/",
  status: 200,
  title: "Shop",
  text: "Welcome",
  textTruncated: false,
  consoleErrors: [],
  failedRequests: [],
};

/** A PNG header of `width` × `height` (signature, then the IHDR chunk). */
function pngHeader(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(25);
  ihdr.writeUInt32BE(13, 0);
  ihdr.write("IHDR", 4, "latin1");
  ihdr.writeUInt32BE(width, 8);
  ihdr.writeUInt32BE(height, 12);
  return Buffer.concat([PNG_SIGNATURE, ihdr]);
}

describe("the browser job's answer", () => {
  it("is read from its last line", () => {
    expect(readPageAnswer(`noise\n${JSON.stringify(page)}\n`)).toEqual(page);
    expect(readPageAnswer('{"ok":false,"error":"net::ERR_CONNECTION_REFUSED"}')).toEqual({
      ok: false,
      error: "net::ERR_CONNECTION_REFUSED",
    });
  });

  it("is refused when it is not JSON, or breaks the bounds the job was given", () => {
    const tooMany = Array.from({ length: PAGE_LIMITS.maxEntries + 1 }, () => "error");
    for (const stdout of [
      "",
      "not json",
      JSON.stringify({ ...page, text: "x".repeat(PAGE_LIMITS.maxTextChars + 1) }),
      JSON.stringify({ ...page, consoleErrors: tooMany }),
      JSON.stringify({ ...page, title: "t".repeat(PAGE_LIMITS.maxEntryChars + 2) }),
      JSON.stringify({ ...page, screenshot: "not base64!" }),
      JSON.stringify({
        ...page,
        screenshot: "A".repeat(Math.ceil(PAGE_LIMITS.maxScreenshotBytes / 3) * 4 + 4),
      }),
      JSON.stringify({ ...page, status: "200" }),
    ]) {
      expect(readPageAnswer(stdout)).toBeUndefined();
    }
  });
});

describe("a PNG's size", () => {
  it("is read from its header", () => {
    expect(pngSize(pngHeader(1280, 800))).toEqual({ width: 1280, height: 800 });
  });

  it("is unknown for bytes that are not a PNG", () => {
    expect(pngSize(Buffer.from("GIF89a, not a PNG at all, long enough"))).toBeUndefined();
    expect(pngSize(pngHeader(0, 800))).toBeUndefined();
    expect(pngSize(PNG_SIGNATURE)).toBeUndefined();
  });
});

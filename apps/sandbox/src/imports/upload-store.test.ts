import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TooManyUploadsError, UploadStore, UploadTooLargeError } from "./upload-store";

describe("the upload store", () => {
  let dir: string;
  let store: UploadStore;
  beforeEach(async () => {
    dir = path.join(mkdtempSync(path.join(tmpdir(), "coder-uploads-")), "uploads");
    store = new UploadStore(dir, 1000);
    await store.init();
  });
  afterEach(() => {
    store.close();
    rmSync(path.dirname(dir), { recursive: true, force: true });
  });

  it("keeps an upload for the session that sent it, once", async () => {
    const upload = await store.receive(
      Readable.from([Buffer.from("abc"), Buffer.from("def")]),
      "alice",
      "p.tar",
    );
    expect(readFileSync(upload.file, "utf8")).toBe("abcdef");
    expect(() => store.take(upload.id, "mallory")).toThrow(/does not exist/);
    expect(store.take(upload.id, "alice").size).toBe(6);
    expect(() => store.take(upload.id, "alice")).toThrow(/does not exist/);
    await store.discard(upload);
    expect(existsSync(upload.file)).toBe(false);
  });

  it("stops an upload past the cap and keeps nothing of it", async () => {
    const body = Readable.from(Array.from({ length: 20 }, () => Buffer.alloc(100)));
    await expect(store.receive(body, "alice", "big")).rejects.toBeInstanceOf(UploadTooLargeError);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("lets one session park at most four uploads, and everyone sixteen", async () => {
    for (let i = 0; i < 4; i++) await store.receive(Readable.from([Buffer.from("x")]), "alice", "a");
    await expect(store.receive(Readable.from([Buffer.from("x")]), "alice", "a")).rejects.toBeInstanceOf(
      TooManyUploadsError,
    );
    for (let guest = 0; guest < 3; guest++)
      for (let i = 0; i < 4; i++)
        await store.receive(Readable.from([Buffer.from("x")]), `guest${guest}`, "g");
    await expect(store.receive(Readable.from([Buffer.from("x")]), "bob", "b")).rejects.toBeInstanceOf(
      TooManyUploadsError,
    );
  });

  it("empties its folder at start: uploads do not outlive the service run", async () => {
    await store.receive(Readable.from([Buffer.from("x")]), "alice", "a");
    const again = new UploadStore(dir, 1000);
    await again.init();
    again.close();
    expect(readdirSync(dir)).toEqual([]);
  });
});

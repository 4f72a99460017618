import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TooManyUploadsError, type Uploader, UploadStore, UploadTooLargeError } from "./upload-store";

const alice: Uploader = { session: "alice", person: "owner", guest: false };
const mallory: Uploader = { session: "mallory", person: "owner", guest: false };
/** The `n`th guest session of share link `link`. */
const guest = (link: string, n: number): Uploader => ({
  session: `${link}-${n}`,
  person: `link:${link}`,
  guest: true,
});
const one = () => Readable.from([Buffer.from("x")]);

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
      alice,
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
    await expect(store.receive(body, alice, "big")).rejects.toBeInstanceOf(UploadTooLargeError);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("lets one person (the owner, or one share link's guests however often they join) park at most four uploads", async () => {
    for (let i = 0; i < 4; i++) await store.receive(one(), alice, "a");
    await expect(store.receive(one(), mallory, "a")).rejects.toMatchObject({ limit: "person-count" });
    for (let i = 0; i < 4; i++) await store.receive(one(), guest("l1", i), "g");
    await expect(store.receive(one(), guest("l1", 5), "g")).rejects.toMatchObject({
      limit: "person-count",
      message: expect.stringMatching(/^you already have 4 uploads/),
    });
  });

  it("never lets guests take the owner's slots, however many links they hold", async () => {
    for (const link of ["l1", "l2", "l3"])
      for (let i = 0; i < 4; i++) await store.receive(one(), guest(link, i), "g");
    const refused = store.receive(one(), guest("l4", 0), "g");
    await expect(refused).rejects.toBeInstanceOf(TooManyUploadsError);
    await expect(refused).rejects.toMatchObject({ limit: "guests" });
    for (let i = 0; i < 4; i++) await store.receive(one(), alice, "a");
  });

  it("stops a link's guests once their uploads take twice the cap, and keeps nothing of the refused one", async () => {
    const chunks = (n: number) => Readable.from(Array.from({ length: n }, () => Buffer.alloc(100)));
    await store.receive(chunks(9), guest("l1", 0), "g");
    await store.receive(chunks(9), guest("l1", 1), "g");
    // 1800 of 2000 bytes used: the next upload is cut once it passes the rest.
    await expect(store.receive(chunks(5), guest("l1", 2), "g")).rejects.toMatchObject({
      limit: "person-bytes",
    });
    expect(readdirSync(dir).filter((f) => f.endsWith(".part"))).toEqual([]);
    await store.receive(chunks(2), guest("l1", 3), "g");
    await expect(store.receive(chunks(1), guest("l1", 4), "g")).rejects.toMatchObject({
      limit: "person-bytes",
    });
    // The owner's allowance is their own.
    await store.receive(chunks(9), alice, "a");
  });

  it("empties its folder at start: uploads do not outlive the service run", async () => {
    await store.receive(one(), alice, "a");
    const again = new UploadStore(dir, 1000);
    await again.init();
    again.close();
    expect(readdirSync(dir)).toEqual([]);
  });
});

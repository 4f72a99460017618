import { randomBytes } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, open, rename, rm } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { ServiceError } from "../errors/service-error";
import { ImportError } from "./import-error";

/**
 * Who sends an upload: the session that alone may use it, and the person whose allowance it uses.
 * The owner is one person however many logins they have; the guests of one share link are one
 * (anyone holding the link can join it again and again).
 */
export interface Uploader {
  /** The principal's session (the stored hash of its cookie). */
  session: string;
  /** `owner`, or `link:<share id>` for a guest. */
  person: string;
  guest: boolean;
}

/** An upload waiting to be unpacked: bytes on the service's disk that the host never opens as an archive. */
export interface Upload {
  id: string;
  /** The principal's session (the stored hash of its cookie): only it may use the upload. */
  owner: string;
  /** Whose allowance it counts against (`Uploader.person`). */
  person: string;
  guest: boolean;
  /** The file name the browser gave, for labels only. */
  name: string;
  size: number;
  file: string;
  receivedAt: number;
}

export class UploadTooLargeError extends ServiceError {
  constructor(readonly maxBytes: number) {
    super(
      "too_large",
      `the upload is larger than ${Math.round(maxBytes / 2 ** 20)} MB (CODER_IMPORT_MAX_MB)`,
    );
  }
}

/** Which allowance an upload would exceed. */
export type UploadLimit = "person-count" | "person-bytes" | "guests";

export class TooManyUploadsError extends ServiceError {
  constructor(readonly limit: UploadLimit) {
    super(
      "too_many",
      {
        "person-count": `you already have ${MAX_PER_PERSON} uploads arriving or waiting to be unpacked; use or wait for them (unused ones are deleted after 30 minutes)`,
        "person-bytes":
          "your uploads waiting to be unpacked already take all the space a guest may use; use them first (unused ones are deleted after 30 minutes)",
        guests:
          "the guests' uploads waiting to be unpacked already take all the slots guests may use; try again in a few minutes",
      }[limit],
    );
  }
}

/** Uploads not used within this long are deleted. */
const EXPIRY_MS = 30 * 60_000;
/** Per person (the owner, or one share link's guests), received or still arriving. */
const MAX_PER_PERSON = 4;
/** Bytes one share link's guests may have received or be receiving, in upload caps. */
const GUEST_BYTES_IN_CAPS = 2;
/**
 * The guests of every link together. With the owner's own `MAX_PER_PERSON` the host's disk holds
 * at most 16 upload caps, and no guest can take a slot of the owner's.
 */
const MAX_GUESTS = 12;

interface Arriving {
  person: string;
  guest: boolean;
  bytes: number;
}

/**
 * Uploads streamed to `<data dir>/uploads`, each capped at `maxBytes` while it arrives, owned by
 * the session that sent it, used once (`take`) and deleted after use or expiry. The folder is
 * emptied at start: an upload does not outlive the service run that received it. Uploads arriving
 * or waiting are limited per person (count; for a link's guests also bytes) and for all guests
 * together, so that guests can never take the owner's slots.
 */
export class UploadStore {
  private readonly uploads = new Map<string, Upload>();
  private readonly arriving = new Set<Arriving>();
  private sweeper: NodeJS.Timeout | undefined;

  constructor(
    private readonly dir: string,
    readonly maxBytes: number,
    private readonly now: () => number = Date.now,
  ) {}

  async init(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    this.sweeper = setInterval(() => void this.sweep(), 60_000);
    this.sweeper.unref();
  }

  close(): void {
    clearInterval(this.sweeper);
  }

  /** Streams `body` to disk; rejects (and keeps nothing) past the cap or past an allowance. */
  async receive(body: Readable, sender: Uploader, name: string): Promise<Upload> {
    const limit = this.limitReached(sender);
    if (limit) throw new TooManyUploadsError(limit);
    const arriving: Arriving = { person: sender.person, guest: sender.guest, bytes: 0 };
    this.arriving.add(arriving);
    const id = randomId();
    const file = path.join(this.dir, id);
    const maxBytes = this.maxBytes;
    const overBudget = () => sender.guest && this.bytesOf(sender.person) > GUEST_BYTES_IN_CAPS * maxBytes;
    const part = `${file}.part`;
    try {
      // Opened before any byte flows: a stream that opened its own file could still be opening
      // when the cap rejects, and create the file after the clean-up below removed it.
      const out = await open(part, "wx", 0o600);
      await pipeline(
        body,
        async function* capped(source: AsyncIterable<Buffer>) {
          for await (const chunk of source) {
            arriving.bytes += chunk.length;
            if (arriving.bytes > maxBytes) throw new UploadTooLargeError(maxBytes);
            if (overBudget()) throw new TooManyUploadsError("person-bytes");
            yield chunk;
          }
        },
        out.createWriteStream(),
      );
      await rename(part, file);
    } catch (err) {
      await rm(part, { force: true });
      throw err;
    } finally {
      this.arriving.delete(arriving);
    }
    const upload: Upload = {
      id,
      owner: sender.session,
      person: sender.person,
      guest: sender.guest,
      name: name.slice(0, 255),
      size: arriving.bytes,
      file,
      receivedAt: this.now(),
    };
    this.uploads.set(id, upload);
    return upload;
  }

  /** The allowance one more upload from `sender` would exceed, if any. */
  private limitReached(sender: Uploader): UploadLimit | undefined {
    const all = [...this.uploads.values(), ...this.arriving];
    if (all.filter((u) => u.person === sender.person).length >= MAX_PER_PERSON) return "person-count";
    if (sender.guest && this.bytesOf(sender.person) >= GUEST_BYTES_IN_CAPS * this.maxBytes)
      return "person-bytes";
    if (sender.guest && all.filter((u) => u.guest).length >= MAX_GUESTS) return "guests";
    return undefined;
  }

  /** Bytes `person`'s uploads take, received or arriving so far. */
  private bytesOf(person: string): number {
    let bytes = 0;
    for (const u of this.uploads.values()) if (u.person === person) bytes += u.size;
    for (const a of this.arriving) if (a.person === person) bytes += a.bytes;
    return bytes;
  }

  /** Hands the upload over for one use (the caller then `discard`s it); only to the session that sent it. */
  take(id: string, owner: string): Upload {
    const upload = this.uploads.get(id);
    if (!upload || upload.owner !== owner)
      throw new ImportError(
        "that upload does not exist (it may have expired); upload the file again",
        "bad_request",
      );
    this.uploads.delete(id);
    return upload;
  }

  open(upload: Upload): Readable {
    return createReadStream(upload.file);
  }

  async discard(upload: Upload): Promise<void> {
    await rm(upload.file, { force: true });
  }

  private async sweep(): Promise<void> {
    for (const upload of this.uploads.values()) {
      if (this.now() - upload.receivedAt < EXPIRY_MS) continue;
      this.uploads.delete(upload.id);
      await this.discard(upload);
    }
  }
}

function randomId(): string {
  return Array.from(randomBytes(24), (b) => (b % 36).toString(36)).join("");
}

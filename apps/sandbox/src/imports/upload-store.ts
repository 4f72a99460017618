import { randomBytes } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, rename, rm } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { ImportError } from "./import-error";

/** An upload waiting to be unpacked: bytes on the service's disk that the host never opens as an archive. */
export interface Upload {
  id: string;
  /** The principal's session (the stored hash of its cookie): only it may use the upload. */
  owner: string;
  /** The file name the browser gave, for labels only. */
  name: string;
  size: number;
  file: string;
  receivedAt: number;
}

export class UploadTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`the upload is larger than ${Math.round(maxBytes / 2 ** 20)} MB (CODER_IMPORT_MAX_MB)`);
    this.name = "UploadTooLargeError";
  }
}

export class TooManyUploadsError extends Error {
  constructor() {
    super("too many uploads are waiting to be unpacked; try again in a few minutes");
    this.name = "TooManyUploadsError";
  }
}

/** Uploads not used within this long are deleted. */
const EXPIRY_MS = 30 * 60_000;
/** Per principal, received or still arriving: what one guest can park on the host's disk. */
const MAX_PENDING = 4;
/** For everyone together (each guest of a link has a session of their own). */
const MAX_PENDING_TOTAL = 16;

/**
 * Uploads streamed to `<data dir>/uploads`, each capped at `maxBytes` while it arrives, owned by
 * the session that sent it, used once (`take`) and deleted after use or expiry. The folder is
 * emptied at start: an upload does not outlive the service run that received it.
 */
export class UploadStore {
  private readonly uploads = new Map<string, Upload>();
  private readonly arriving = new Map<string, number>();
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

  /** Streams `body` to disk; rejects (and keeps nothing) past the cap or past the pending limit. */
  async receive(body: Readable, owner: string, name: string): Promise<Upload> {
    const pending = [...this.uploads.values()].filter((u) => u.owner === owner).length;
    const arrivingTotal = [...this.arriving.values()].reduce((sum, n) => sum + n, 0);
    if (
      pending + (this.arriving.get(owner) ?? 0) >= MAX_PENDING ||
      this.uploads.size + arrivingTotal >= MAX_PENDING_TOTAL
    )
      throw new TooManyUploadsError();
    this.arriving.set(owner, (this.arriving.get(owner) ?? 0) + 1);
    const id = randomId();
    const file = path.join(this.dir, id);
    const maxBytes = this.maxBytes;
    let size = 0;
    try {
      await pipeline(
        body,
        async function* capped(source: AsyncIterable<Buffer>) {
          for await (const chunk of source) {
            size += chunk.length;
            if (size > maxBytes) throw new UploadTooLargeError(maxBytes);
            yield chunk;
          }
        },
        createWriteStream(`${file}.part`, { flags: "wx", mode: 0o600 }),
      );
      await rename(`${file}.part`, file);
    } catch (err) {
      await rm(`${file}.part`, { force: true });
      throw err;
    } finally {
      const left = (this.arriving.get(owner) ?? 1) - 1;
      if (left > 0) this.arriving.set(owner, left);
      else this.arriving.delete(owner);
    }
    const upload = { id, owner, name: name.slice(0, 255), size, file, receivedAt: this.now() };
    this.uploads.set(id, upload);
    return upload;
  }

  /** Hands the upload over for one use (the caller then `discard`s it); only to the session that sent it. */
  take(id: string, owner: string): Upload {
    const upload = this.uploads.get(id);
    if (!upload || upload.owner !== owner)
      throw new ImportError(
        "that upload does not exist (it may have expired); upload the file again",
        "refused",
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

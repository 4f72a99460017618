import type { GitSource, ImportOrigin, ImportProgress, UnpackReport, WorkspaceSource } from "@coder/protocol";
import type { WorkspaceDriver } from "../driver/workspace-driver";
import type { EgressAllowEntry } from "../net/egress-allow-list";
import { cloneInto } from "./git-clone";
import { checkGitUrl } from "./git-url";
import { ImportError } from "./import-error";
import { unpackInto } from "./unpack-archive";
import type { Upload, UploadStore } from "./upload-store";

export interface ImportSettings {
  /** What one import may bring in: the clone, or an archive and what it unpacks to. */
  maxBytes: number;
  timeoutMs: number;
  /** CODER_EGRESS_ALLOW: where plain http may go. */
  allow: readonly EgressAllowEntry[];
}

/** A source checked and ready: a git source as given (token included), or an upload taken from the store. */
export type PreparedSource = { type: "git"; source: GitSource } | { type: "upload"; upload: Upload };

/**
 * Fills workspaces from a repository or an archive. Everything runs in job containers beside the
 * workspace (driver.volumeJob): the host passes bytes and reads bounded progress, never git or an
 * unpacker on the content. One fill per workspace at a time; deleting the workspace cancels it.
 */
export class WorkspaceImporter {
  private readonly running = new Map<string, { abort: AbortController; done: Promise<unknown> }>();

  constructor(
    private readonly driver: WorkspaceDriver,
    readonly uploads: UploadStore,
    private readonly settings: ImportSettings,
  ) {}

  /**
   * What can be refused before a workspace is made: a URL the policy does not allow, an upload
   * that is not the caller's. Takes the upload out of the store (it is used once).
   */
  prepare(source: WorkspaceSource, owner: string): { prepared: PreparedSource; origin: ImportOrigin } {
    if (source.type === "git") {
      checkGitUrl(source.url, this.settings.allow);
      const { url, ref, depth, submodules, token } = source;
      return {
        prepared: { type: "git", source },
        origin: { type: "git", url, ref, depth, submodules, private: token !== undefined },
      };
    }
    const upload = this.uploads.take(source.uploadId, owner);
    return { prepared: { type: "upload", upload }, origin: { type: "upload", name: upload.name } };
  }

  /**
   * Fills the volume of workspace `id` (its container and volume exist; it may run or not).
   * `clean` empties it first (a retry). An upload is deleted afterwards, whatever happened. An
   * abort of `options.signal` (the workspace is being deleted) ends the job.
   */
  async fill(
    id: string,
    image: string,
    prepared: PreparedSource,
    options: { clean: boolean; onProgress(p: ImportProgress): void; signal?: AbortSignal },
  ): Promise<UnpackReport | undefined> {
    return this.exclusive(id, options.signal, async (signal) => {
      if (prepared.type === "git") {
        options.onProgress({ phase: "connecting", percent: null });
        await cloneInto(this.driver, id, image, prepared.source, {
          settings: this.settings,
          clean: options.clean,
          onProgress: options.onProgress,
          signal,
        });
        return undefined;
      }
      return this.unpack(id, image, prepared.upload, ".", options.onProgress, signal);
    });
  }

  /** Unpacks the caller's upload into a folder of a workspace (files dropped on the file tree). */
  async unpackUpload(
    id: string,
    image: string,
    upload: { uploadId: string; owner: string; into: string },
  ): Promise<UnpackReport> {
    if (this.running.has(id))
      throw new ImportError("an import into this workspace is already running", "busy");
    const taken = this.uploads.take(upload.uploadId, upload.owner);
    return this.exclusive(id, undefined, (signal) =>
      this.unpack(id, image, taken, upload.into, () => undefined, signal),
    );
  }

  /** Gives up a prepared source that will not be used (the workspace could not be made). */
  async release(prepared: PreparedSource): Promise<void> {
    if (prepared.type === "upload") await this.uploads.discard(prepared.upload);
  }

  /** Stops a running fill of `id` (its workspace is being deleted) and waits until its job is gone. */
  async cancel(id: string): Promise<void> {
    const run = this.running.get(id);
    if (!run) return;
    run.abort.abort();
    await run.done.catch(() => undefined);
  }

  private async unpack(
    id: string,
    image: string,
    upload: Upload,
    into: string,
    onProgress: (p: ImportProgress) => void,
    signal: AbortSignal,
  ): Promise<UnpackReport> {
    try {
      return await unpackInto(
        this.driver,
        id,
        image,
        { stream: this.uploads.open(upload), size: upload.size },
        { settings: this.settings, into, onProgress, signal },
      );
    } finally {
      await this.uploads.discard(upload);
    }
  }

  private async exclusive<T>(
    id: string,
    outer: AbortSignal | undefined,
    work: (signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    if (this.running.has(id))
      throw new ImportError("an import into this workspace is already running", "busy");
    const abort = new AbortController();
    const signal = outer ? AbortSignal.any([abort.signal, outer]) : abort.signal;
    const done = work(signal);
    this.running.set(id, { abort, done });
    try {
      return await done;
    } finally {
      this.running.delete(id);
    }
  }
}

import { Redis as RedisExtension } from "@hocuspocus/extension-redis";
import type {
  afterUnloadDocumentPayload,
  beforeBroadcastStatelessPayload,
  Extension,
  onAwarenessUpdatePayload,
  onChangePayload,
} from "@hocuspocus/server";
import { Redis, type RedisOptions } from "ioredis";
import { MAX_REST_MS } from "./resting-documents";
import { SharedRests } from "./shared-rests";
import { type LeaseEvents, WriterLease } from "./writer-lease";

/**
 * While Redis is away, a command fails after two reconnection attempts instead of queueing without
 * bound (the editors are told; ioredis keeps reconnecting), and none waits longer than 2 s.
 */
const CLIENT_OPTIONS: RedisOptions = { maxRetriesPerRequest: 2, commandTimeout: 2000, connectTimeout: 2000 };

/**
 * `@hocuspocus/extension-redis`, whose publishing never fails a hook: Hocuspocus runs `onChange`
 * and the awareness hooks without awaiting them, so a rejection there (Redis away) would be an
 * unhandled one. Typing then stays on this instance until Redis is back (the next change's
 * first sync step carries all of it).
 */
class QuietRedisExtension extends RedisExtension {
  constructor(
    createClient: () => Redis,
    prefix: string,
    private readonly failed: (error: Error) => void,
  ) {
    super({ createClient, prefix });
  }

  /**
   * The extension's store lock is not used: nothing is stored through Hocuspocus here, and a
   * document's one writer is the holder of its WriterLease, not whoever stores next.
   */
  override async onStoreDocument(): Promise<void> {}

  override async afterStoreDocument(): Promise<void> {}

  /** As the extension's, but a connection closed meanwhile (the service stops) is no error. */
  override async afterUnloadDocument({ instance, documentName }: afterUnloadDocumentPayload): Promise<void> {
    if (instance.documents.has(documentName) || this.sub.status !== "ready") return;
    await this.sub.unsubscribe(`${this.configuration.prefix}:${documentName}`).catch(this.failed);
  }

  override async onChange(data: onChangePayload): Promise<unknown> {
    return super.onChange(data).catch(this.failed);
  }

  override async onAwarenessUpdate(data: onAwarenessUpdatePayload): Promise<number | undefined> {
    return super.onAwarenessUpdate(data).catch((error: Error) => {
      this.failed(error);
      return undefined;
    });
  }

  override async beforeBroadcastStateless(data: beforeBroadcastStatelessPayload): Promise<number> {
    return super.beforeBroadcastStateless(data).catch((error: Error) => {
      this.failed(error);
      return 0;
    });
  }
}

/** What one workspace's live documents share with the other instances. */
export interface WorkspaceSharing {
  /** Carries typing, cursors and the service's notes between the instances' Hocuspocus. */
  extension: Extension;
  rests: SharedRests;
  /** The lease that says whether this instance writes `name` back. */
  lease(name: string, events: LeaseEvents): WriterLease;
  /** Closes the workspace's Redis connections (its documents are all unloaded). */
  close(): Promise<void>;
}

/**
 * Live documents shared by the service instances through one Redis server (CODER_REDIS_URL):
 * Hocuspocus's Redis extension relays every update and awareness change between the instances
 * that have a document open, each document's state and epoch live in Redis (SharedRests), and a
 * lease per document (WriterLease) names the one instance that writes it back and merges its
 * disk. Each workspace's Hocuspocus gets connections of its own (a publisher and a subscriber):
 * the extension finds documents by name, and names are paths, which repeat across workspaces.
 */
export class SharedDocuments {
  private readonly redis: Redis;
  /** Every connection made, the workspaces' too, so that `close` ends them all. */
  private readonly clients = new Set<Redis>();
  private failing = false;

  constructor(
    private readonly url: string,
    private readonly instanceId: string,
    private readonly log: (line: string) => void,
  ) {
    this.redis = this.client();
  }

  forWorkspace(workspaceId: string): WorkspaceSharing {
    const key = (kind: string) => (name: string) => `coder:collab:${kind}:${workspaceId}:${name}`;
    const restKey = key("rest");
    const extension = new QuietRedisExtension(
      () => this.client(),
      `coder:collab:doc:${workspaceId}`,
      this.failed,
    );
    return {
      extension,
      rests: new SharedRests(this.redis, restKey, key("announced")),
      lease: (name, events) =>
        new WriterLease(
          this.redis,
          { lease: key("writer")(name), fence: "coder:collab:fence", keepAlive: restKey(name) },
          this.instanceId,
          MAX_REST_MS,
          events,
        ),
      close: async () => {
        this.clients.delete(extension.pub as Redis);
        this.clients.delete(extension.sub as Redis);
        // Its connections may be closed already (the service stops).
        await extension.onDestroy().catch(() => undefined);
      },
    };
  }

  /** Drops the shared states of a stopped or deleted workspace's documents (as a local rest is). */
  async forget(workspaceId: string): Promise<void> {
    const id = workspaceId.replace(/[*?[\]\\]/g, "\\$&");
    for (const kind of ["rest", "announced"]) {
      const match = `coder:collab:${kind}:${id}:*`;
      for await (const keys of this.redis.scanStream({ match, count: 100 })) {
        if ((keys as string[]).length > 0) await this.redis.del(...(keys as string[]));
      }
    }
  }

  async close(): Promise<void> {
    for (const client of this.clients) client.disconnect();
    this.clients.clear();
  }

  private client(): Redis {
    const client = new Redis(this.url, CLIENT_OPTIONS);
    this.clients.add(client);
    client.on("error", this.failed);
    client.on("ready", () => {
      this.failing = false;
    });
    return client;
  }

  /** Said once per outage: ioredis retries on its own, and every document would say it again. */
  private readonly failed = (error: Error): void => {
    if (this.failing) return;
    this.failing = true;
    this.log(`collab: Redis (live documents across instances): ${error.message}`);
  };
}

import { sql } from "kysely";
import pg from "pg";
import { Listeners, type LiveBus, type Notice, TOPICS, type Topic } from "../events/live-bus";
import type { Db } from "./database";

const channel = (topic: Topic) => `coder_${topic}`;
const RECONNECT_MS = 1000;

/**
 * The live bus of instances sharing a PostgreSQL database: `pg_notify` on one pooled connection,
 * `LISTEN` on a connection of its own. Payloads are `<instance>:<key>`, so a listener knows its
 * own notices. When the listening connection drops it reconnects and tells every listener to
 * re-read (what was announced meanwhile is lost as a notice, not as data).
 */
export class PostgresBus implements LiveBus {
  private readonly listeners = new Listeners();
  private client: pg.Client | undefined;
  private closed = false;
  private timer: NodeJS.Timeout | undefined;

  private constructor(
    private readonly db: Db,
    private readonly url: string,
    private readonly instanceId: string,
    private readonly log: (line: string) => void,
  ) {}

  static async open(
    db: Db,
    url: string,
    instanceId: string,
    log: (line: string) => void,
  ): Promise<PostgresBus> {
    const bus = new PostgresBus(db, url, instanceId, log);
    await bus.connect();
    return bus;
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    client.on("notification", (message) => this.receive(message));
    client.on("error", (error) => this.lost(client, error));
    client.on("end", () => this.lost(client, new Error("connection closed")));
    await client.connect();
    for (const topic of TOPICS) await client.query(`LISTEN ${channel(topic)}`);
    this.client = client;
  }

  private receive({ channel: name, payload = "" }: pg.Notification): void {
    const topic = TOPICS.find((t) => channel(t) === name);
    const at = payload.indexOf(":");
    if (!topic || at < 0) return;
    const notice: Notice = { key: payload.slice(at + 1), local: payload.slice(0, at) === this.instanceId };
    this.listeners.dispatch(topic, notice);
  }

  private lost(client: pg.Client, error: Error): void {
    if (this.client !== client || this.closed) return;
    this.client = undefined;
    client.end().catch(() => {});
    this.log(`live updates: ${error.message}; reconnecting`);
    const retry = () => {
      this.timer = undefined;
      if (this.closed) return;
      this.connect().then(
        () => this.listeners.dispatchAll(),
        () => {
          this.timer = setTimeout(retry, RECONNECT_MS);
        },
      );
    };
    this.timer = setTimeout(retry, RECONNECT_MS);
  }

  async notify(topic: Topic, key: string): Promise<void> {
    await sql`select pg_notify(${channel(topic)}, ${`${this.instanceId}:${key}`})`.execute(this.db);
  }

  listen(topic: Topic, listener: (notice: Notice) => void): () => void {
    return this.listeners.add(topic, listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => {});
  }
}

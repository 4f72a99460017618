import {
  type ColumnDefinitionBuilder,
  type Kysely,
  type Migration,
  type MigrationProvider,
  sql,
} from "kysely";
import type { SqlDialect } from "./sql-dialect";

/**
 * The column types each dialect stores a kind of value as. SQLite's are the ones the first
 * migrations were written with, so its schema is unchanged; PostgreSQL gets native types (the
 * pool reads them back in the same shape: db/postgres.ts).
 */
function columnTypes(dialect: SqlDialect) {
  const pg = dialect === "postgres";
  return {
    /** A key the database counts up: SQLite's autoincrement rowid, an identity column on Postgres. */
    counter: pg ? "bigint" : "integer",
    counterKey: (c: ColumnDefinitionBuilder) =>
      pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement(),
    timestamp: pg ? "timestamptz" : "text",
    flag: pg ? "boolean" : "integer",
    flagOff: pg ? sql`false` : 0,
    json: pg ? "json" : "text",
  } as const;
}

/**
 * Migrations live in code (not files) so the bundled service carries them. Each is append-only:
 * never change what one does to a database that has run it; add the next. (The first four became
 * dialect-aware for PostgreSQL; on SQLite they still make exactly the schema they always did.)
 */
const migrations = (t: ReturnType<typeof columnTypes>): Record<string, Migration> => ({
  "0001_initial": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("admin_tokens")
        .addColumn("id", t.counter, t.counterKey)
        .addColumn("token_hash", "text", (c) => c.notNull().unique())
        .addColumn("created_at", t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable("login_sessions")
        .addColumn("id_hash", "text", (c) => c.primaryKey())
        .addColumn("created_at", t.timestamp, (c) => c.notNull())
        .addColumn("expires_at", t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable("login_tickets")
        .addColumn("ticket_hash", "text", (c) => c.primaryKey())
        .addColumn("expires_at", t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable("workspaces")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("egress", t.flag, (c) => c.notNull().defaultTo(t.flagOff))
        .addColumn("image", "text", (c) => c.notNull())
        .addColumn("created_at", t.timestamp, (c) => c.notNull())
        .addColumn("desired_state", "text", (c) => c.notNull().defaultTo("running"))
        .execute();
    },
  },
  "0002_agent": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("sessions")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
        .addColumn("parent_id", "text", (c) => c.references("sessions.id").onDelete("cascade"))
        .addColumn("title", "text", (c) => c.notNull())
        .addColumn("agent", "text", (c) => c.notNull())
        .addColumn("model", "text")
        .addColumn("created_at", t.timestamp, (c) => c.notNull())
        .addColumn("updated_at", t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema.createIndex("sessions_workspace").on("sessions").columns(["workspace_id"]).execute();
      await db.schema
        .createTable("messages")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("session_id", "text", (c) => c.notNull().references("sessions.id").onDelete("cascade"))
        .addColumn("role", "text", (c) => c.notNull())
        .addColumn("agent", "text", (c) => c.notNull())
        .addColumn("model", "text")
        .addColumn("created_at", t.timestamp, (c) => c.notNull())
        .addColumn("position", t.counter, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("messages_session")
        .on("messages")
        .columns(["session_id", "position"])
        .execute();
      await db.schema
        .createTable("parts")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("message_id", "text", (c) => c.notNull().references("messages.id").onDelete("cascade"))
        .addColumn("session_id", "text", (c) => c.notNull())
        .addColumn("type", "text", (c) => c.notNull())
        .addColumn("text", "text", (c) => c.notNull().defaultTo(""))
        .addColumn("data", t.json, (c) => c.notNull())
        .addColumn("position", t.counter, (c) => c.notNull())
        .execute();
      await db.schema.createIndex("parts_session").on("parts").columns(["session_id", "position"]).execute();
      await db.schema
        .createTable("turns")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("session_id", "text", (c) => c.notNull().references("sessions.id").onDelete("cascade"))
        .addColumn("user_message_id", "text", (c) => c.notNull())
        .addColumn("assistant_message_id", "text")
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("error", "text")
        .addColumn("started_at", t.timestamp, (c) => c.notNull())
        .addColumn("ended_at", t.timestamp)
        .execute();
      await db.schema.createIndex("turns_status").on("turns").columns(["status"]).execute();
      await db.schema
        .createTable("session_events")
        .addColumn("id", t.counter, t.counterKey)
        .addColumn("session_id", "text", (c) => c.notNull().references("sessions.id").onDelete("cascade"))
        .addColumn("data", t.json, (c) => c.notNull())
        .addColumn("created_at", t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("session_events_session")
        .on("session_events")
        .columns(["session_id", "id"])
        .execute();
      await db.schema
        .createTable("todos")
        .addColumn("session_id", "text", (c) => c.primaryKey().references("sessions.id").onDelete("cascade"))
        .addColumn("items", t.json, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable("permission_grants")
        .addColumn("id", t.counter, t.counterKey)
        .addColumn("session_id", "text", (c) => c.notNull().references("sessions.id").onDelete("cascade"))
        .addColumn("agent", "text", (c) => c.notNull())
        .addColumn("permission", "text", (c) => c.notNull())
        .addColumn("pattern", "text", (c) => c.notNull())
        .addColumn("created_at", t.timestamp, (c) => c.notNull())
        .execute();
    },
  },
  "0003_snapshots": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("turn_snapshots")
        .addColumn("turn_id", "text", (c) => c.primaryKey().references("turns.id").onDelete("cascade"))
        .addColumn("session_id", "text", (c) => c.notNull().references("sessions.id").onDelete("cascade"))
        .addColumn("before_id", "text", (c) => c.notNull())
        .addColumn("after_id", "text", (c) => c.notNull())
        .addColumn("reverted", t.flag, (c) => c.notNull().defaultTo(t.flagOff))
        .execute();
      await db.schema
        .createIndex("turn_snapshots_session")
        .on("turn_snapshots")
        .columns(["session_id"])
        .execute();
    },
  },
  "0004_share_links": {
    async up(db: Kysely<unknown>) {
      // No foreign key to workspaces: a link outlives its workspace as a revoked row.
      await db.schema
        .createTable("share_links")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("workspace_id", "text", (c) => c.notNull())
        .addColumn("role", "text", (c) => c.notNull())
        .addColumn("secret_hash", "text", (c) => c.notNull().unique())
        .addColumn("created_at", t.timestamp, (c) => c.notNull())
        .addColumn("expires_at", t.timestamp)
        .addColumn("revoked_at", t.timestamp)
        .execute();
      await db.schema
        .createIndex("share_links_workspace")
        .on("share_links")
        .columns(["workspace_id"])
        .execute();
      await db.schema
        .createTable("guest_sessions")
        .addColumn("id_hash", "text", (c) => c.primaryKey())
        .addColumn("share_id", "text", (c) => c.notNull().references("share_links.id"))
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("created_at", t.timestamp, (c) => c.notNull())
        .addColumn("expires_at", t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("guest_sessions_share")
        .on("guest_sessions")
        .columns(["share_id"])
        .execute();
    },
  },
  "0005_message_authors": {
    async up(db: Kysely<unknown>) {
      // Who wrote a person's prompt (owner or guest, and their name); null on the agent's messages.
      await db.schema.alterTable("messages").addColumn("author_kind", "text").execute();
      await db.schema.alterTable("messages").addColumn("author_name", "text").execute();
    },
  },
  "0006_instances": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("service_instances")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("started_at", t.timestamp, (c) => c.notNull())
        .addColumn("heartbeat_at", t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema.alterTable("turns").addColumn("instance_id", "text").execute();
      // One running turn per session, whichever instance starts it.
      await db.schema
        .createIndex("turns_one_running")
        .on("turns")
        .column("session_id")
        .unique()
        .where(sql.ref("status"), "=", "running")
        .execute();
      await db.schema
        .createTable("pending_requests")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("session_id", "text", (c) => c.notNull().references("sessions.id").onDelete("cascade"))
        .addColumn("kind", "text", (c) => c.notNull())
        .addColumn("request", t.json, (c) => c.notNull())
        .addColumn("answer", t.json)
        .addColumn("created_at", t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("pending_requests_session")
        .on("pending_requests")
        .columns(["session_id"])
        .execute();
    },
  },
  "0007_warm_pool": {
    async up(db: Kysely<unknown>) {
      // A row per spare workspace ready to be claimed; deleting the row is what claims (or retires) it.
      await db.schema
        .createTable("warm_pool")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("fingerprint", "text", (c) => c.notNull())
        .addColumn("created_at", t.timestamp, (c) => c.notNull())
        .execute();
    },
  },
  "0008_idle_stop": {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("workspaces").addColumn("idle_stopped_at", t.timestamp).execute();
      await db.schema.alterTable("workspaces").addColumn("last_used_at", t.timestamp).execute();
    },
  },
  "0009_workspace_import": {
    async up(db: Kysely<unknown>) {
      // JSON of how the workspace's files came in (imports/import-record.ts), or null.
      await db.schema.alterTable("workspaces").addColumn("import_record", t.json).execute();
    },
  },
  "0010_presence_boards": {
    async up(db: Kysely<unknown>) {
      // The people each service instance has on each workspace (presence/presence-share.ts).
      await db.schema
        .createTable("presence_boards")
        .addColumn("instance_id", "text", (c) => c.notNull())
        .addColumn("workspace_id", "text", (c) => c.notNull())
        .addColumn("people", t.json, (c) => c.notNull())
        .addColumn("updated_at", t.timestamp, (c) => c.notNull())
        .addPrimaryKeyConstraint("presence_boards_pk", ["instance_id", "workspace_id"])
        .execute();
    },
  },
  "0011_shared_transients": {
    async up(db: Kysely<unknown>) {
      // JSON of the transient state the instance doing the work put on it (workspaces/shared-transients.ts).
      await db.schema.alterTable("workspaces").addColumn("transient", t.json).execute();
    },
  },
  "0012_workspace_tombstones": {
    async up(db: Kysely<unknown>) {
      // A delete asked for and not yet carried out (workspaces/tombstones.ts): a start finishes it.
      await db.schema
        .createTable("workspace_tombstones")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("deleted_at", t.timestamp, (c) => c.notNull())
        .addColumn("cleaner", "text")
        .execute();
    },
  },
  "0013_talk": {
    async up(db: Kysely<unknown>) {
      // The people's talk of each workspace (talk/talk-store.ts), deleted with the workspace.
      await db.schema
        .createTable("talk_rooms")
        .addColumn("workspace_id", "text", (c) =>
          c.primaryKey().references("workspaces.id").onDelete("cascade"),
        )
        .addColumn("viewers_may_write", t.flag, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable("talk_lines")
        .addColumn("id", t.counter, t.counterKey)
        .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
        .addColumn("kind", "text", (c) => c.notNull())
        .addColumn("person_key", "text", (c) => c.notNull())
        .addColumn("person_name", "text", (c) => c.notNull())
        .addColumn("person_role", "text", (c) => c.notNull())
        .addColumn("guest", t.flag, (c) => c.notNull())
        .addColumn("text", "text")
        .addColumn("created_at", t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("talk_lines_workspace")
        .on("talk_lines")
        .columns(["workspace_id", "id"])
        .execute();
    },
  },
  "0014_accounts": {
    async up(db: Kysely<unknown>) {
      // People with their own logins (auth/accounts.ts). The first admin is made here so that what
      // an install already has (the admin token, its sessions, every workspace) stays theirs.
      await db.schema
        .createTable("users")
        .addColumn("id", "text", (c) => c.primaryKey())
        // Lower-cased; null for the first admin until they give one (they sign in with the token).
        .addColumn("email", "text", (c) => c.unique())
        .addColumn("display_name", "text", (c) => c.notNull())
        .addColumn("site_role", "text", (c) => c.notNull())
        .addColumn("suspended_at", t.timestamp)
        .addColumn("limits", t.json)
        .addColumn("created_at", t.timestamp, (c) => c.notNull())
        .addColumn("last_seen_at", t.timestamp)
        .execute();
      const now = new Date().toISOString();
      // Named as the one owner was shown before accounts; they may give themselves another name.
      await sql`insert into users (id, display_name, site_role, created_at)
        values (${FIRST_ADMIN_ID}, ${"Owner"}, ${"admin"}, ${now})`.execute(db);
      // The admin token is the break-glass login of one user (the first admin).
      await db.schema
        .alterTable("admin_tokens")
        .addColumn("user_id", "text", (c) => c.references("users.id").onDelete("cascade"))
        .execute();
      await sql`update admin_tokens set user_id = ${FIRST_ADMIN_ID}`.execute(db);
      await db.schema
        .alterTable("login_sessions")
        .addColumn("user_id", "text", (c) => c.references("users.id").onDelete("cascade"))
        .execute();
      await sql`update login_sessions set user_id = ${FIRST_ADMIN_ID}`.execute(db);
      await db.schema.createIndex("login_sessions_user").on("login_sessions").column("user_id").execute();
      await db.schema
        .alterTable("workspaces")
        .addColumn("owner_id", "text", (c) => c.references("users.id"))
        .execute();
      await sql`update workspaces set owner_id = ${FIRST_ADMIN_ID}`.execute(db);
      await db.schema.createIndex("workspaces_owner").on("workspaces").column("owner_id").execute();
      // Sharing with a named person (share.create with userId or email), beside anonymous links.
      await db.schema
        .createTable("workspace_members")
        .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
        .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
        .addColumn("role", "text", (c) => c.notNull())
        .addColumn("created_at", t.timestamp, (c) => c.notNull())
        .addPrimaryKeyConstraint("workspace_members_pk", ["workspace_id", "user_id"])
        .execute();
      await db.schema
        .createIndex("workspace_members_user")
        .on("workspace_members")
        .column("user_id")
        .execute();
    },
  },
  "0015_audit": {
    async up(db: Kysely<unknown>) {
      // The audit trail (audit/audit-log.ts): append-only. `workspace_id` is no foreign key, so an
      // entry outlives its workspace; the indexes serve the newest-first list and its filters.
      await db.schema
        .createTable("audit_events")
        .addColumn("id", t.counter, t.counterKey)
        .addColumn("at", t.timestamp, (c) => c.notNull())
        .addColumn("actor_kind", "text", (c) => c.notNull())
        .addColumn("actor_id", "text")
        .addColumn("actor_name", "text", (c) => c.notNull())
        .addColumn("on_behalf_of", "text")
        .addColumn("action", "text", (c) => c.notNull())
        .addColumn("target", "text")
        .addColumn("workspace_id", "text")
        .addColumn("address", "text")
        .addColumn("user_agent", "text")
        .addColumn("detail", t.json)
        .execute();
      for (const column of ["workspace_id", "actor_id", "action"]) {
        await db.schema
          .createIndex(`audit_events_${column}`)
          .on("audit_events")
          .columns([column, "id"])
          .execute();
      }
      // The retention purge deletes by age.
      await db.schema.createIndex("audit_events_at").on("audit_events").column("at").execute();
    },
  },
  "0016_passwords": {
    async up(db: Kysely<unknown>) {
      // Invited local accounts (auth/invites.ts, auth/passwords.ts): an argon2id hash per user who
      // set a password, and the single-use links that let a person set one.
      await db.schema
        .createTable("user_passwords")
        .addColumn("user_id", "text", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
        .addColumn("hash", "text", (c) => c.notNull())
        .addColumn("updated_at", t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable("invites")
        .addColumn("id", "text", (c) => c.primaryKey())
        // sha256 of the secret in the link (auth/secrets.ts); the secret itself is never stored.
        .addColumn("secret_hash", "text", (c) => c.notNull().unique())
        .addColumn("email", "text", (c) => c.notNull())
        .addColumn("role", "text", (c) => c.notNull())
        .addColumn("kind", "text", (c) => c.notNull())
        // The account a reset link sets the password of; null for an invitation.
        .addColumn("user_id", "text", (c) => c.references("users.id").onDelete("cascade"))
        .addColumn("created_by", "text", (c) => c.references("users.id").onDelete("set null"))
        .addColumn("created_at", t.timestamp, (c) => c.notNull())
        .addColumn("expires_at", t.timestamp, (c) => c.notNull())
        .addColumn("used_at", t.timestamp)
        .execute();
    },
  },
  "0017_oidc": {
    async up(db: Kysely<unknown>) {
      // A sign-in with OIDC under way (auth/oidc-flows.ts): what the callback must match, for 10 minutes.
      await db.schema
        .createTable("oidc_flows")
        // sha256 of the browser's flow cookie: the flow is bound to the browser that started it.
        .addColumn("id_hash", "text", (c) => c.primaryKey())
        .addColumn("state", "text", (c) => c.notNull())
        .addColumn("nonce", "text", (c) => c.notNull())
        .addColumn("code_verifier", "text", (c) => c.notNull())
        .addColumn("redirect_uri", "text", (c) => c.notNull())
        .addColumn("expires_at", t.timestamp, (c) => c.notNull())
        .execute();
      // Who a provider's subject is here (auth/oidc-identities.ts).
      await db.schema
        .createTable("user_identities")
        .addColumn("issuer", "text", (c) => c.notNull())
        .addColumn("subject", "text", (c) => c.notNull())
        .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
        .addColumn("created_at", t.timestamp, (c) => c.notNull())
        .addPrimaryKeyConstraint("user_identities_pk", ["issuer", "subject"])
        // One identity per provider for an account.
        .addUniqueConstraint("user_identities_user_issuer", ["user_id", "issuer"])
        .execute();
    },
  },
  "0018_previews": {
    async up(db: Kysely<unknown>) {
      // Who may open each port's preview (preview/preview-visibility.ts); no row: private.
      await db.schema
        .createTable("preview_visibility")
        .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
        .addColumn("port", "integer", (c) => c.notNull())
        .addColumn("visibility", "text", (c) => c.notNull())
        .addColumn("updated_at", t.timestamp, (c) => c.notNull())
        .addPrimaryKeyConstraint("preview_visibility_pk", ["workspace_id", "port"])
        .execute();
      // The one-time links of preview.open (preview/preview-tokens.ts): sha256 of the token, 60 s.
      await db.schema
        .createTable("preview_tokens")
        .addColumn("token_hash", "text", (c) => c.primaryKey())
        .addColumn("session_id", "text", (c) => c.notNull())
        .addColumn("principal_kind", "text", (c) => c.notNull())
        .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
        .addColumn("port", "integer", (c) => c.notNull())
        .addColumn("expires_at", t.timestamp, (c) => c.notNull())
        .execute();
      // A preview origin's cookie (preview/preview-sessions.ts): sha256 of its value, for one
      // session of the IDE on one port of one workspace; it works only while that session does.
      await db.schema
        .createTable("preview_sessions")
        .addColumn("id_hash", "text", (c) => c.primaryKey())
        .addColumn("session_id", "text", (c) => c.notNull())
        .addColumn("principal_kind", "text", (c) => c.notNull())
        .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
        .addColumn("port", "integer", (c) => c.notNull())
        .addColumn("expires_at", t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("preview_sessions_session")
        .on("preview_sessions")
        .column("session_id")
        .execute();
    },
  },
  "0019_git_credentials": {
    async up(db: Kysely<unknown>) {
      // A person's git tokens per host (git-credentials/): the token sealed with AES-256-GCM under
      // the service's key, never in clear.
      await db.schema
        .createTable("git_credentials")
        .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
        // `name[:port]`, lower-cased, as the URL parser gives it (git-credentials/credential-host.ts).
        .addColumn("host", "text", (c) => c.notNull())
        .addColumn("username", "text", (c) => c.notNull())
        .addColumn("sealed_token", "text", (c) => c.notNull())
        .addColumn("created_at", t.timestamp, (c) => c.notNull())
        .addPrimaryKeyConstraint("git_credentials_pk", ["user_id", "host"])
        .execute();
      // The owner's credentials that git run in the workspace's terminals and by its agent may use.
      await db.schema
        .createTable("git_credential_bindings")
        .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
        .addColumn("host", "text", (c) => c.notNull())
        // The owner who bound it: a workspace given to someone else does not hand out their tokens.
        .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
        .addColumn("created_at", t.timestamp, (c) => c.notNull())
        .addPrimaryKeyConstraint("git_credential_bindings_pk", ["workspace_id", "host"])
        .execute();
    },
  },
  "0020_sign_in_failures": {
    async up(db: Kysely<unknown>) {
      // Wrong passwords per account, shared by every instance (auth/sign-in-failures.ts): a guesser
      // spreading tries over instances is held back as if they all went to one.
      await db.schema
        .createTable("sign_in_failures")
        .addColumn("key", "text", (c) => c.primaryKey())
        .addColumn("failures", "integer", (c) => c.notNull())
        .addColumn("last_failure_at", t.timestamp, (c) => c.notNull())
        .execute();
    },
  },
  "0021_instance_nodes": {
    async up(db: Kysely<unknown>) {
      // Under the swarm driver: the Swarm node an instance runs on and where its node channel
      // listens (swarm/node-channel/), so the others can run a workspace's processes on that node.
      await db.schema.alterTable("service_instances").addColumn("node_id", "text").execute();
      await db.schema.alterTable("service_instances").addColumn("node_address", "text").execute();
    },
  },
});

/** The id migration 0014 gives the admin an install already had (and a new install's first admin). */
export const FIRST_ADMIN_ID = "first-admin";

export const migrationProvider = (dialect: SqlDialect): MigrationProvider => ({
  async getMigrations() {
    return migrations(columnTypes(dialect));
  },
});

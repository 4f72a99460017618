import type { Kysely, Migration, MigrationProvider } from "kysely";

/**
 * Migrations live in code (not files) so the bundled service carries them. Each is append-only:
 * never edit one that has shipped; add the next.
 */
const migrations: Record<string, Migration> = {
  "0001_initial": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("admin_tokens")
        .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
        .addColumn("token_hash", "text", (c) => c.notNull().unique())
        .addColumn("created_at", "text", (c) => c.notNull())
        .execute();
      await db.schema
        .createTable("login_sessions")
        .addColumn("id_hash", "text", (c) => c.primaryKey())
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("expires_at", "text", (c) => c.notNull())
        .execute();
      await db.schema
        .createTable("login_tickets")
        .addColumn("ticket_hash", "text", (c) => c.primaryKey())
        .addColumn("expires_at", "text", (c) => c.notNull())
        .execute();
      await db.schema
        .createTable("workspaces")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("egress", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("image", "text", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
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
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("updated_at", "text", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("sessions_workspace").on("sessions").columns(["workspace_id"]).execute();
      await db.schema
        .createTable("messages")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("session_id", "text", (c) => c.notNull().references("sessions.id").onDelete("cascade"))
        .addColumn("role", "text", (c) => c.notNull())
        .addColumn("agent", "text", (c) => c.notNull())
        .addColumn("model", "text")
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("position", "integer", (c) => c.notNull())
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
        .addColumn("data", "text", (c) => c.notNull())
        .addColumn("position", "integer", (c) => c.notNull())
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
        .addColumn("started_at", "text", (c) => c.notNull())
        .addColumn("ended_at", "text")
        .execute();
      await db.schema.createIndex("turns_status").on("turns").columns(["status"]).execute();
      await db.schema
        .createTable("session_events")
        .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
        .addColumn("session_id", "text", (c) => c.notNull().references("sessions.id").onDelete("cascade"))
        .addColumn("data", "text", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("session_events_session")
        .on("session_events")
        .columns(["session_id", "id"])
        .execute();
      await db.schema
        .createTable("todos")
        .addColumn("session_id", "text", (c) => c.primaryKey().references("sessions.id").onDelete("cascade"))
        .addColumn("items", "text", (c) => c.notNull())
        .execute();
      await db.schema
        .createTable("permission_grants")
        .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
        .addColumn("session_id", "text", (c) => c.notNull().references("sessions.id").onDelete("cascade"))
        .addColumn("agent", "text", (c) => c.notNull())
        .addColumn("permission", "text", (c) => c.notNull())
        .addColumn("pattern", "text", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
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
        .addColumn("reverted", "integer", (c) => c.notNull().defaultTo(0))
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
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("expires_at", "text")
        .addColumn("revoked_at", "text")
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
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("expires_at", "text", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("guest_sessions_share")
        .on("guest_sessions")
        .columns(["share_id"])
        .execute();
    },
  },
  "0005_workspace_import": {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("workspaces").addColumn("import_record", "text").execute();
    },
  },
};

export const migrationProvider: MigrationProvider = {
  async getMigrations() {
    return migrations;
  },
};

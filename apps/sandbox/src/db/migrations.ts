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
};

export const migrationProvider: MigrationProvider = {
  async getMigrations() {
    return migrations;
  },
};

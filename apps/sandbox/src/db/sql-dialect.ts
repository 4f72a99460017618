/** The database engines the service runs on: SQLite embedded (the default) or a PostgreSQL server. */
export type SqlDialect = "sqlite" | "postgres";

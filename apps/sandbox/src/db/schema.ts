import type { Generated } from "kysely";

export interface AdminTokenTable {
  id: Generated<number>;
  token_hash: string;
  created_at: string;
}

export interface LoginSessionTable {
  /** sha256 of the cookie value; the cookie itself is never stored. */
  id_hash: string;
  created_at: string;
  expires_at: string;
}

/** Single-use login links printed at start. */
export interface LoginTicketTable {
  ticket_hash: string;
  expires_at: string;
}

export interface WorkspaceTable {
  id: string;
  name: string;
  egress: number;
  image: string;
  created_at: string;
  /** Set when the service itself asked for the workspace to be stopped (so a restart leaves it stopped). */
  desired_state: "running" | "stopped";
}

export interface Database {
  admin_tokens: AdminTokenTable;
  login_sessions: LoginSessionTable;
  login_tickets: LoginTicketTable;
  workspaces: WorkspaceTable;
}

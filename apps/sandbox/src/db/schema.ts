import type { Generated } from "kysely";

export interface AdminTokenTable {
  id: Generated<number>;
  token_hash: string;
  created_at: string;
  /** The user the token signs in (the first admin; migration 0014_accounts). */
  user_id: string | null;
}

/** A person with a login of their own (migration 0014_accounts; auth/accounts.ts). */
export interface UserTable {
  id: string;
  /** Lower-cased; null for the first admin until they give one. */
  email: string | null;
  display_name: string;
  site_role: "admin" | "member";
  suspended_at: string | null;
  /** JSON of the limits an admin set for this user (over CODER_DEFAULT_LIMITS), or null. */
  limits: string | null;
  created_at: string;
  last_seen_at: string | null;
}

/** A workspace shared with a named person (migration 0014_accounts). */
export interface WorkspaceMemberTable {
  workspace_id: string;
  user_id: string;
  role: "viewer" | "editor";
  created_at: string;
}

/** A user's password, as an argon2id PHC string (migration 0016_passwords; auth/passwords.ts). */
export interface UserPasswordTable {
  user_id: string;
  hash: string;
  updated_at: string;
}

/**
 * Wrong passwords tried against one account, counted by every instance together
 * (auth/sign-in-failures.ts, 0020_sign_in_failures).
 */
export interface SignInFailureTable {
  /** sha256 of the lower-cased e-mail address tried: addresses with no account are not stored. */
  key: string;
  failures: number;
  last_failure_at: string;
}

/** A single-use link to set a password: a new account's invitation or an account's reset (0016_passwords). */
export interface InviteTable {
  id: string;
  /** sha256 of the secret in the link; the secret itself is never stored. */
  secret_hash: string;
  /** Lower-cased: the address the account signs in with. */
  email: string;
  /** The site role the new account gets (a reset keeps the account's own). */
  role: "admin" | "member";
  kind: "invite" | "reset";
  /** The account a reset link is for; null for an invitation. */
  user_id: string | null;
  /** The administrator who made the link; null once their account is deleted. */
  created_by: string | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface LoginSessionTable {
  /** sha256 of the cookie value; the cookie itself is never stored. */
  id_hash: string;
  created_at: string;
  expires_at: string;
  /** Whose session it is (migration 0014_accounts). */
  user_id: string | null;
}

/** Single-use login links printed at start. */
export interface LoginTicketTable {
  ticket_hash: string;
  expires_at: string;
}

export interface WorkspaceTable {
  id: string;
  name: string;
  /** The user it belongs to (migration 0014_accounts); null only on a spare of the warm pool. */
  owner_id: string | null;
  egress: number;
  image: string;
  created_at: string;
  /** Set when the service itself asked for the workspace to be stopped (so a restart leaves it stopped). */
  desired_state: "running" | "stopped";
  /** When the service stopped it for being idle; null once it starts again (or was stopped by a person). */
  idle_stopped_at: string | null;
  /**
   * The last use of it that a service instance saw (written at most once per idle check), so an
   * instance never stops a workspace that people use through another one.
   */
  last_used_at: string | null;
  /** JSON of how its files came in (migration 0009_workspace_import; see imports/import-record.ts), or null. */
  import_record: string | null;
  /**
   * JSON of the transient state (creating, starting, stopping, error, an import's progress) that
   * the instance doing the work put on it, for the others (migration 0011_shared_transients).
   */
  transient: string | null;
}

/** A spare workspace of the warm pool, ready to be claimed (workspaces/warm-pool.ts). */
export interface WarmPoolTable {
  /** The workspace id its container and volumes are named after; a claim makes it the workspace's. */
  id: string;
  /** The driver's fingerprint of how it was made (image, hardening): another one is retired. */
  fingerprint: string;
  created_at: string;
}

/**
 * A workspace whose delete was asked for and is not known to be finished (migration
 * 0012_workspace_tombstones): whatever is labelled with its id goes, at the latest at the next start.
 */
export interface WorkspaceTombstoneTable {
  id: string;
  deleted_at: string;
  /** The instance that was creating it and promised to remove what it made; null: whoever deletes. */
  cleaner: string | null;
}

/** An agent session (migration 0002_agent, like the tables below). */
export interface SessionTable {
  id: string;
  workspace_id: string;
  parent_id: string | null;
  title: string;
  agent: string;
  model: string | null;
  created_at: string;
  updated_at: string;
}

export interface MessageTable {
  id: string;
  session_id: string;
  role: "user" | "assistant";
  agent: string;
  model: string | null;
  created_at: string;
  /** The id of the event that created it: orders messages. */
  position: number;
  /** Who wrote a person's prompt (both set, or both null). */
  author_kind: "user" | "owner" | "guest" | null;
  author_name: string | null;
}

/** The current state of a part; `text` is kept apart so deltas append in SQL. */
export interface PartTable {
  id: string;
  message_id: string;
  session_id: string;
  type: string;
  text: string;
  /** JSON of the part's other fields. */
  data: string;
  position: number;
}

export interface TurnTable {
  id: string;
  session_id: string;
  user_message_id: string;
  assistant_message_id: string | null;
  status: string;
  error: string | null;
  started_at: string;
  ended_at: string | null;
  /** The service instance that runs it (migration 0005); null on rows of earlier versions. */
  instance_id: string | null;
}

/** Every event of every session, in order; the id is the `tracked()` id of `session.events`. */
export interface SessionEventTable {
  id: Generated<number>;
  session_id: string;
  /** JSON of the SessionEvent. */
  data: string;
  created_at: string;
}

export interface TodoTable {
  session_id: string;
  /** JSON array of todo items. */
  items: string;
}

/** "Always" replies to approvals: allowed for the rest of the session. */
export interface PermissionGrantTable {
  id: Generated<number>;
  session_id: string;
  /** The agent the grant was given to (a plan-mode grant does not carry over to build). */
  agent: string;
  permission: string;
  pattern: string;
  created_at: string;
}

/**
 * The workspace snapshots around a turn that ran a file-changing tool (migration 0003_snapshots):
 * taken before its first such call and when it ended. Ids are the daemon's snapshot ids.
 */
export interface TurnSnapshotTable {
  turn_id: string;
  session_id: string;
  before_id: string;
  after_id: string;
  /** 1 while the turn's changes are reverted. */
  reverted: number;
}

/** A share link (migration 0004_share_links): revoked links stay, marked, so they never come back. */
export interface ShareLinkTable {
  id: string;
  workspace_id: string;
  role: "viewer" | "editor";
  /** sha256 of the secret in the link; the secret itself is never stored. */
  secret_hash: string;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
}

/** A guest's login through a share link; `id_hash` is the sha256 of the cookie. */
export interface GuestSessionTable {
  id_hash: string;
  share_id: string;
  name: string;
  created_at: string;
  expires_at: string;
}

/** A running service process (migration 0005_instances): its heartbeat says it still lives. */
export interface ServiceInstanceTable {
  id: string;
  started_at: string;
  heartbeat_at: string;
  /** The Swarm node it runs on, under the swarm driver (migration 0021). */
  node_id: string | null;
  /** host:port of its node channel, under the swarm driver with one. */
  node_address: string | null;
}

/** An approval or question waiting for a person (migration 0005_instances). */
export interface PendingRequestTable {
  id: string;
  /** The session the person looks at (a sub-agent's requests surface in its root session). */
  session_id: string;
  kind: "approval" | "question";
  /** JSON of the ApprovalRequest or QuestionRequest. */
  request: string;
  /** JSON of the answer, set once by whichever instance the person answered on. */
  answer: string | null;
  created_at: string;
}

/** The people one service instance has on one workspace (migration 0010_presence_boards). */
export interface PresenceBoardTable {
  instance_id: string;
  workspace_id: string;
  /** JSON of SharedPerson[] (presence/presence-share.ts). */
  people: string;
  updated_at: string;
}

/** Per workspace, the owner's settings of its people's talk (migration 0013_talk). */
export interface TalkRoomTable {
  workspace_id: string;
  /** 1 while viewers may write (the default), 0 once the owner turned it off. */
  viewers_may_write: number;
}

/** One line of a workspace's people's talk: a message or a join, leave or revoke notice (0013_talk). */
export interface TalkLineTable {
  id: Generated<number>;
  workspace_id: string;
  kind: "message" | "joined" | "left" | "revoked";
  /** A hash of who it is by or about (their login), to tell a caller their own lines; never sent out. */
  person_key: string;
  person_name: string;
  person_role: "owner" | "editor" | "viewer";
  /** 1 when the person joined through a share link. */
  guest: number;
  /** The message; null on a notice. */
  text: string | null;
  created_at: string;
}

/** One entry of the audit trail (migration 0015_audit; audit/audit-log.ts): never changed, purged by age. */
export interface AuditEventTable {
  id: Generated<number>;
  at: string;
  actor_kind: "user" | "guest" | "agent" | "system";
  /** The user id, or a guest's share link id; null for the service itself or an unknown person. */
  actor_id: string | null;
  actor_name: string;
  /** The user (or share link) the agent acted for. */
  on_behalf_of: string | null;
  action: string;
  /** What the action was on (a share link id, a terminal name, a tool), or null. */
  target: string | null;
  /** Not a foreign key: the entry outlives the workspace. */
  workspace_id: string | null;
  address: string | null;
  user_agent: string | null;
  /** JSON of the redacted detail (audit/redact-detail.ts), or null. */
  detail: string | null;
}

/** A sign-in with OIDC under way (migration 0017_oidc; auth/oidc-flows.ts). */
export interface OidcFlowTable {
  /** sha256 of the flow cookie's value; the cookie itself is never stored. */
  id_hash: string;
  state: string;
  nonce: string;
  code_verifier: string;
  redirect_uri: string;
  expires_at: string;
}

/** An OpenID provider's subject linked to an account (migration 0017_oidc). */
export interface UserIdentityTable {
  issuer: string;
  subject: string;
  user_id: string;
  created_at: string;
}

/** Who may open a port's preview (migration 0018_previews); no row: private. */
export interface PreviewVisibilityTable {
  workspace_id: string;
  port: number;
  visibility: "private" | "workspace" | "public";
  updated_at: string;
}

/** A one-time link of `preview.open` (migration 0018_previews), bound to a session, a workspace and a port. */
export interface PreviewTokenTable {
  /** sha256 of the token; the token itself is never stored. */
  token_hash: string;
  /** The IDE session that asked for it (login_sessions.id_hash or a guest's session id). */
  session_id: string;
  principal_kind: "user" | "guest";
  workspace_id: string;
  port: number;
  expires_at: string;
}

/** A preview origin's cookie (migration 0018_previews): valid while its IDE session is. */
export interface PreviewSessionTable {
  /** sha256 of the cookie's value. */
  id_hash: string;
  session_id: string;
  principal_kind: "user" | "guest";
  workspace_id: string;
  port: number;
  expires_at: string;
}

/** A person's git token for one host, sealed (migration 0019_git_credentials; git-credentials/). */
export interface GitCredentialTable {
  user_id: string;
  /** `name[:port]`, lower-cased (git-credentials/credential-host.ts). */
  host: string;
  username: string;
  /** AES-256-GCM under the service's key (git-credentials/sealed-token.ts); never the token in clear. */
  sealed_token: string;
  created_at: string;
}

/** A host whose owner's credential git in the workspace's terminals and agent may use (0019). */
export interface GitCredentialBindingTable {
  workspace_id: string;
  host: string;
  /** The owner who bound it; the binding counts only while they own the workspace. */
  user_id: string;
  created_at: string;
}

export interface Database {
  admin_tokens: AdminTokenTable;
  login_sessions: LoginSessionTable;
  login_tickets: LoginTicketTable;
  workspaces: WorkspaceTable;
  warm_pool: WarmPoolTable;
  workspace_tombstones: WorkspaceTombstoneTable;
  sessions: SessionTable;
  messages: MessageTable;
  parts: PartTable;
  turns: TurnTable;
  session_events: SessionEventTable;
  todos: TodoTable;
  permission_grants: PermissionGrantTable;
  turn_snapshots: TurnSnapshotTable;
  share_links: ShareLinkTable;
  guest_sessions: GuestSessionTable;
  service_instances: ServiceInstanceTable;
  pending_requests: PendingRequestTable;
  presence_boards: PresenceBoardTable;
  talk_rooms: TalkRoomTable;
  talk_lines: TalkLineTable;
  users: UserTable;
  workspace_members: WorkspaceMemberTable;
  audit_events: AuditEventTable;
  oidc_flows: OidcFlowTable;
  user_identities: UserIdentityTable;
  user_passwords: UserPasswordTable;
  invites: InviteTable;
  sign_in_failures: SignInFailureTable;
  preview_visibility: PreviewVisibilityTable;
  preview_tokens: PreviewTokenTable;
  preview_sessions: PreviewSessionTable;
  git_credentials: GitCredentialTable;
  git_credential_bindings: GitCredentialBindingTable;
}

/**
 * How running turns show on the workspace's presence board: the service passes the board in as
 * this operation, so the agent runtime does not depend on it.
 */
export interface AgentPresence {
  /**
   * A turn of the session `turn` starts working on the workspace for `prompter` (null: nobody
   * named); calling the result takes it off again (ended, failed or interrupted).
   */
  agentArrives(workspaceId: string, turn: string, prompter: string | null): () => void;
  /** The turn of the session `turn` reads or changes `file` now (null: no one file). */
  agentAt(workspaceId: string, turn: string, file: string | null): void;
}

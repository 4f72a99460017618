import type { SessionState } from "./types";

export interface SessionStore {
  /** The state of a session, created empty on first use. */
  get(id: string): SessionState;
  has(id: string): boolean;
  delete(id: string): boolean;
  ids(): string[];
}

export function createSessionState(id: string): SessionState {
  return { id, files: new Map(), todos: [] };
}

/** Session state (read-before-write records, todos) kept in memory per session id. */
export function createSessionStore(): SessionStore {
  const sessions = new Map<string, SessionState>();
  return {
    get(id) {
      let state = sessions.get(id);
      if (!state) {
        state = createSessionState(id);
        sessions.set(id, state);
      }
      return state;
    },
    has: (id) => sessions.has(id),
    delete: (id) => sessions.delete(id),
    ids: () => [...sessions.keys()],
  };
}

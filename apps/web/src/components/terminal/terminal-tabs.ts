import { terminalName } from "@coder/protocol";

/**
 * The terminal tabs open for a workspace, remembered in localStorage so a reload reattaches to
 * the same tmux sessions.
 */

export const DEFAULT_TERMINAL = "main";

type KeyValueStore = Pick<Storage, "getItem" | "setItem">;

const storageKey = (workspaceId: string) => `coder.terminals.${workspaceId}`;

/** The tabs this browser saved for the workspace; null when it saved none (its first visit). */
export function loadTerminalNames(storage: KeyValueStore, workspaceId: string): string[] | null {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(storageKey(workspaceId)) ?? "null");
    if (Array.isArray(parsed)) {
      const names = parsed.filter((name) => terminalName.safeParse(name).success) as string[];
      const unique = [...new Set(names)];
      if (unique.length > 0) return unique;
    }
  } catch {
    // Unreadable: start over as on a first visit.
  }
  return null;
}

/**
 * The tabs of a first visit: the terminals already open in the workspace (someone joining a
 * shared session sees its shells), else one new terminal.
 */
export function firstTerminalTabs(open: readonly string[]): string[] {
  return open.length > 0 ? [...open] : [DEFAULT_TERMINAL];
}

export function saveTerminalNames(storage: KeyValueStore, workspaceId: string, names: string[]): void {
  try {
    storage.setItem(storageKey(workspaceId), JSON.stringify(names));
  } catch {
    // Storage full or disabled: the tabs still work, they are just not remembered.
  }
}

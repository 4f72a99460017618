import { errorMessage } from "../../lib/errors/error-message";

export interface PreviewState {
  port: number;
  running: boolean;
  /** Something listens on the port now (it is in the live list). */
  listening: boolean;
  /** The person's role may open the port as it is shared now. */
  openable: boolean;
  /** Why the last `preview.open` failed, if it did. */
  openError: unknown;
}

/**
 * What keeps the pane from showing the app, in plain words, or null when nothing does. The first
 * cause wins: a stopped workspace explains a silent port, a silent port a refused open.
 */
export function previewProblem(state: PreviewState): string | null {
  const { port } = state;
  if (!state.running) return "The workspace is stopped: start it to see this preview.";
  if (!state.listening)
    return `Nothing listens on port ${port} now: the server stopped or closed its connections. The preview loads again once it listens.`;
  if (!state.openable) return `Port ${port} is private now: only the owner and editors may open it.`;
  if (state.openError) return `Could not open port ${port}: ${errorMessage(state.openError)}`;
  return null;
}

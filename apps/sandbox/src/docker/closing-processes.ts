/**
 * The processes a driver is ending through their `close()`: `settle()` waits for them, so a service
 * that stops leaves no terminal client or language server behind in its workspaces.
 */
export class ClosingProcesses {
  private readonly closing = new Set<Promise<void>>();

  /** A closer whose work `settle()` waits for while it runs. */
  tracked(close: () => Promise<void>): () => Promise<void> {
    return () => {
      const closing = close();
      this.closing.add(closing);
      void closing.finally(() => this.closing.delete(closing));
      return closing;
    };
  }

  async settle(): Promise<void> {
    // Closing one process can start the close of another (a socket's end closes its exec).
    while (this.closing.size > 0) await Promise.all(this.closing);
  }
}

import { type AttachedPerson, MAX_ATTACHED_LISTED, type TerminalServerMessage } from "@coder/protocol";

type AttachedMessage = Extract<TerminalServerMessage, { type: "attached" }>;

/** One socket attached to a terminal: who, whether they type, their window, and how to tell them. */
export interface Attachment extends AttachedPerson {
  tell(message: AttachedMessage): void;
}

/** What the socket that attached does as its window changes and when it goes. */
export interface AttachmentHandle {
  resized(cols: number, rows: number): void;
  detach(): void;
}

/** Changes within this long (a panel being dragged) reach everyone as one message. */
const COALESCE_MS = 50;

/**
 * Who is attached to each terminal through this service, told to everyone attached whenever it
 * changes. The size it reports is the one tmux gives the shared window (`window-size smallest`
 * in tmux.conf): the smallest width and the smallest height among the windows of those attached
 * with input; a viewer attaches with `ignore-size` and never counts.
 */
export class TerminalAttachments {
  private readonly byTerminal = new Map<string, Set<Attachment>>();
  private readonly scheduled = new Set<string>();

  attach(workspaceId: string, terminal: string, attachment: Attachment): AttachmentHandle {
    const key = `${workspaceId}/${terminal}`;
    let attached = this.byTerminal.get(key);
    if (!attached) {
      attached = new Set();
      this.byTerminal.set(key, attached);
    }
    attached.add(attachment);
    this.changed(key);
    return {
      resized: (cols, rows) => {
        if (attachment.cols === cols && attachment.rows === rows) return;
        attachment.cols = cols;
        attachment.rows = rows;
        this.changed(key);
      },
      detach: () => {
        const set = this.byTerminal.get(key);
        if (!set?.delete(attachment)) return;
        if (set.size === 0) this.byTerminal.delete(key);
        this.changed(key);
      },
    };
  }

  private changed(key: string): void {
    if (this.scheduled.has(key)) return;
    this.scheduled.add(key);
    setTimeout(() => {
      this.scheduled.delete(key);
      const attached = this.byTerminal.get(key);
      if (!attached) return;
      const message = attachedMessage([...attached]);
      for (const attachment of attached) attachment.tell(message);
    }, COALESCE_MS).unref();
  }
}

/** The message for `attached`: people with input first, then by name; the shared window's size. */
export function attachedMessage(attached: readonly AttachedPerson[]): AttachedMessage {
  const typing = attached.filter((a) => a.input);
  const size =
    typing.length === 0
      ? null
      : { cols: Math.min(...typing.map((a) => a.cols)), rows: Math.min(...typing.map((a) => a.rows)) };
  const people = [...attached]
    .sort((a, b) => Number(b.input) - Number(a.input) || a.name.localeCompare(b.name))
    .map(({ name, input, cols, rows }) => ({ name, input, cols, rows }));
  return {
    type: "attached",
    people: people.slice(0, MAX_ATTACHED_LISTED),
    more: Math.max(0, people.length - MAX_ATTACHED_LISTED),
    size,
  };
}

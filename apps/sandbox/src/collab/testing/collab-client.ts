import { COLLAB_TEXT, type CollabNote, collabNote } from "@coder/protocol";
import { HocuspocusProvider, HocuspocusProviderWebsocket } from "@hocuspocus/provider";
import WebSocket from "ws";
import * as Y from "yjs";

/**
 * One tab's collaboration socket, as a browser opens it (with the login cookie and the Origin);
 * `onFrame` sees every frame the service sends it.
 */
export function collabSocket(
  url: string,
  cookie: string,
  workspaceId: string,
  onFrame?: (data: ArrayBuffer | Buffer) => void,
): HocuspocusProviderWebsocket {
  class CookieWebSocket extends WebSocket {
    constructor(address: string) {
      super(address, { headers: { cookie, origin: url } });
      // The provider takes its listeners off before it closes a socket; one still connecting then
      // emits "closed before the connection was established", which with no listener would crash
      // the process. The provider learns of every failure from its own listeners while they are on.
      this.on("error", () => {});
      if (onFrame) this.on("message", onFrame);
    }
  }
  return new HocuspocusProviderWebsocket({
    url: `${url.replace("http", "ws")}/collab/${workspaceId}/tab${Math.random().toString(36).slice(2, 10)}`,
    WebSocketPolyfill: CookieWebSocket,
    delay: 100,
    minDelay: 100,
    maxDelay: 500,
  });
}

export interface OpenDocument {
  doc: Y.Doc;
  provider: HocuspocusProvider;
  text(): string;
  notes: CollabNote[];
  /** Why the service refused the document, once it did. */
  refused(): string | undefined;
  epoch(): string | null;
}

/** Opens `path` on `socket` as the editor does, with the epoch of an earlier copy when given. */
export function openDocument(
  socket: HocuspocusProviderWebsocket,
  path: string,
  options: { doc?: Y.Doc; epoch?: string | null } = {},
): OpenDocument {
  const doc = options.doc ?? new Y.Doc();
  const notes: CollabNote[] = [];
  let refusal: string | undefined;
  let epoch = options.epoch ?? null;
  const provider = new HocuspocusProvider({
    websocketProvider: socket,
    name: path,
    document: doc,
    token: () => JSON.stringify({ epoch }),
    onStateless: ({ payload }) => {
      const note = collabNote.parse(JSON.parse(payload));
      if (note.type === "hello") epoch = note.epoch;
      notes.push(note);
    },
    onAuthenticationFailed: ({ reason }) => {
      refusal = reason;
    },
  });
  provider.attach();
  return {
    doc,
    provider,
    text: () => doc.getText(COLLAB_TEXT).toString(),
    notes,
    refused: () => refusal,
    epoch: () => epoch,
  };
}

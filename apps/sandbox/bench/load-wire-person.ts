import { COLLAB_TEXT } from "@coder/protocol";
import { AuthMessageType, writeAuthentication } from "@hocuspocus/common";
import { MessageType } from "@hocuspocus/server";
import * as decoding from "lib0/decoding";
import * as encoding from "lib0/encoding";
import WebSocket from "ws";
import * as syncProtocol from "y-protocols/sync";
import * as Y from "yjs";
import type { KeystrokeClock } from "./load-keystrokes";

/**
 * A simulated person on the collaboration socket, speaking the Hocuspocus protocol itself: it
 * authenticates and syncs like the provider does, types into a document that holds only its own
 * characters (each keystroke a one-character update at the end of its own run), and of what the
 * service sends it keeps nothing: update frames are timed by their headers (KeystrokeClock) and
 * counted. What the service does for it is what it does for an editor tab; what the generator does
 * is a few microseconds a frame instead of integrating every update into a copy of the file.
 */
export class WirePerson {
  private readonly mine = new Y.Doc();
  private readonly ws: WebSocket;
  private readonly token = JSON.stringify({ epoch: null });
  synced = false;
  refused: string | undefined;

  constructor(
    url: string,
    cookie: string,
    workspaceId: string,
    private readonly document: string,
    private readonly keystrokes: KeystrokeClock,
    onFrame: () => void,
  ) {
    this.ws = new WebSocket(
      `${url.replace("http", "ws")}/collab/${workspaceId}/tab${Math.random().toString(36).slice(2, 10)}`,
      { headers: { cookie, origin: url }, perMessageDeflate: false },
    );
    this.ws.binaryType = "nodebuffer";
    this.ws.on("open", () => {
      this.send((e) => {
        encoding.writeVarUint(e, MessageType.Auth);
        writeAuthentication(e, this.token);
      });
      this.send((e) => {
        encoding.writeVarUint(e, MessageType.Sync);
        syncProtocol.writeSyncStep1(e, this.mine);
      });
    });
    this.ws.on("message", (data: Buffer) => {
      onFrame();
      this.receive(data);
    });
    this.ws.on("close", (code, reason) => {
      this.refused ??= `the collaboration socket closed (${code}${reason.length > 0 ? ` ${reason.toString()}` : ""})`;
    });
    this.ws.on("error", (error) => {
      this.refused ??= error.message;
    });
    this.mine.on("update", (update: Uint8Array) =>
      this.send((e) => {
        encoding.writeVarUint(e, MessageType.Sync);
        syncProtocol.writeUpdate(e, update);
      }),
    );
  }

  /** Its Yjs client id: its keystrokes are known by it. */
  get client(): number {
    return this.mine.clientID;
  }

  /** Its keystrokes so far (its document's clock). */
  get typedCount(): number {
    return Y.getState(this.mine.store, this.mine.clientID);
  }

  type(): void {
    const text = this.mine.getText(COLLAB_TEXT);
    this.keystrokes.typed(this.mine, () => text.insert(text.length, "x"));
  }

  close(): void {
    this.ws.close();
  }

  private send(write: (encoder: encoding.Encoder) => void): void {
    if (this.ws.readyState !== WebSocket.OPEN) return;
    const encoder = encoding.createEncoder();
    encoding.writeVarString(encoder, this.document);
    write(encoder);
    this.ws.send(encoding.toUint8Array(encoder));
  }

  private receive(data: Buffer): void {
    const decoder = decoding.createDecoder(data);
    if (decoding.readVarString(decoder) !== this.document) return;
    const type = decoding.readVarUint(decoder);
    if (type === MessageType.Auth) {
      const auth = decoding.readVarUint(decoder);
      if (auth === AuthMessageType.PermissionDenied) this.refused = decoding.readVarString(decoder);
      else if (auth === AuthMessageType.Token)
        this.send((e) => {
          encoding.writeVarUint(e, MessageType.Auth);
          writeAuthentication(e, this.token);
        });
      return;
    }
    if (type !== MessageType.Sync) return;
    const step = decoding.readVarUint(decoder);
    if (step === syncProtocol.messageYjsSyncStep1) {
      // The service asks what this person has: its own characters.
      const stateVector = decoding.readVarUint8Array(decoder);
      this.send((e) => {
        encoding.writeVarUint(e, MessageType.Sync);
        encoding.writeVarUint(e, syncProtocol.messageYjsSyncStep2);
        encoding.writeVarUint8Array(e, Y.encodeStateAsUpdate(this.mine, stateVector));
      });
    } else if (step === syncProtocol.messageYjsSyncStep2) {
      this.keystrokes.seen(decoding.readVarUint8Array(decoder), this.mine.clientID);
      this.synced = true;
    } else if (step === syncProtocol.messageYjsUpdate) {
      this.keystrokes.delivered(decoding.readVarUint8Array(decoder), this.mine.clientID);
    }
  }
}

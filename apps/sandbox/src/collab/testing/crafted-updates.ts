import { COLLAB_TEXT } from "@coder/protocol";
import * as encoding from "lib0/encoding";
import * as Y from "yjs";

/** The two client ids that take turns in `typedInTurns`; `crowdedAtOnePlace` uses larger ones. */
const TURN_CLIENTS = [1, 2] as const;

/**
 * An update of `count` one-character items typed in turns by two client ids, each after the
 * other's last (about 35 KB for 5 000): a run that every conflicting insertion before it walks.
 */
export function typedInTurns(count: number): Uint8Array {
  const docs = TURN_CLIENTS.map((client) => {
    const doc = new Y.Doc();
    doc.clientID = client;
    return doc;
  });
  for (let i = 0; i < count; i++) {
    const writer = docs[i % 2] as Y.Doc;
    const reader = docs[(i + 1) % 2] as Y.Doc;
    const text = writer.getText(COLLAB_TEXT);
    const before = Y.encodeStateVector(writer);
    text.insert(text.length, "x");
    Y.applyUpdate(reader, Y.encodeStateAsUpdate(writer, before));
  }
  return Y.encodeStateAsUpdate(docs[0] as Y.Doc);
}

/**
 * An update of `count` one-character items from ascending client ids, all inserted right after
 * the first item of `typedInTurns` with nothing to their right (about 80 KB for 5 000): each is
 * ordered against every item after that place, which is quadratic.
 */
export function crowdedAtOnePlace(count: number): Uint8Array {
  const encoder = new Y.UpdateEncoderV1();
  encoding.writeVarUint(encoder.restEncoder, count);
  const origin = Y.createID(TURN_CLIENTS[0], 0);
  for (let i = 0; i < count; i++) {
    const client = 1000 + i;
    encoding.writeVarUint(encoder.restEncoder, 1);
    encoder.writeClient(client);
    encoding.writeVarUint(encoder.restEncoder, 0);
    new Y.Item(Y.createID(client, 0), null, origin, null, null, null, null, new Y.ContentString("x")).write(
      encoder,
      0,
    );
  }
  // An empty delete set.
  encoding.writeVarUint(encoder.restEncoder, 0);
  return encoder.toUint8Array();
}

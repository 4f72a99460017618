import { COLLAB_TEXT } from "@coder/protocol";
import { MessageType } from "@hocuspocus/server";
import * as decoding from "lib0/decoding";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as syncProtocol from "y-protocols/sync";
import * as Y from "yjs";
import { startTestService, type TestService, waitForStatus } from "../testing/harness";
import { until } from "../testing/until";
import { collabSocket, type OpenDocument, openDocument } from "./testing/collab-client";

const PEOPLE = 8;
const KEYS_AT_ONCE = 25;

/** What the service sent one person: frames that carry document updates, and awareness frames. */
interface Received {
  updates: number;
  awareness: number;
}

function count(received: Received, data: ArrayBuffer | Buffer): void {
  // The provider asks for ArrayBuffers.
  const decoder = decoding.createDecoder(new Uint8Array(data));
  decoding.readVarString(decoder);
  const type = decoding.readVarUint(decoder);
  if (type === MessageType.Awareness) received.awareness++;
  else if (type === MessageType.Sync && decoding.readVarUint(decoder) === syncProtocol.messageYjsUpdate)
    received.updates++;
}

/** A room of people typing into one file at the same moment, through the real service and workspace. */
describe("a crowd typing into one live document at once", () => {
  let t: TestService;
  let id: string;
  const people: { document: OpenDocument; received: Received }[] = [];
  const initial = "shared\n";

  /** Everyone types `keys` characters at random places, each its own keystroke, all in one go. */
  const everyoneTypes = (keys: number) => {
    for (const { document } of people) {
      const text = document.doc.getText(COLLAB_TEXT);
      for (let k = 0; k < keys; k++) text.insert(Math.floor(Math.random() * (text.length + 1)), "x");
    }
  };
  const everyoneHas = (length: number) =>
    until(
      () => people.every((p) => p.document.text().length === length),
      `everyone has ${length} characters`,
    );

  beforeAll(async () => {
    t = await startTestService();
    id = (await t.api.workspace.create.mutate({ name: "crowd" })).id;
    await waitForStatus(t.api, id, "running");
    await t.api.files.write.mutate({ workspaceId: id, path: "shared.txt", content: initial });
    for (let i = 0; i < PEOPLE; i++) {
      const received: Received = { updates: 0, awareness: 0 };
      const socket = collabSocket(t.url, t.cookie, id, (data) => count(received, data));
      people.push({ document: openDocument(socket, "shared.txt"), received });
    }
    await until(() => people.every((p) => p.document.provider.isSynced), "everyone synced");
  });
  afterAll(async () => {
    for (const { document } of people) {
      document.provider.destroy();
      document.provider.configuration.websocketProvider.destroy();
    }
    await t?.close();
  });

  it("ends with the same text for everyone and on disk", async () => {
    let length = initial.length;
    for (let round = 0; round < 4; round++) {
      everyoneTypes(KEYS_AT_ONCE);
      length += PEOPLE * KEYS_AT_ONCE;
      await everyoneHas(length);
    }
    const text = people[0]?.document.text();
    for (const { document } of people) expect(document.text()).toBe(text);
    await until(
      async () => (await t.api.files.read.query({ workspaceId: id, path: "shared.txt" })).content === text,
      "the disk holds everyone's typing",
    );
  });

  it("brings each person the keystrokes typed at once in fewer frames than keystrokes", async () => {
    for (const { received } of people) received.updates = 0;
    const length = people[0]?.document.text().length ?? 0;
    everyoneTypes(KEYS_AT_ONCE);
    await everyoneHas(length + PEOPLE * KEYS_AT_ONCE);
    // One frame per keystroke would be PEOPLE * KEYS_AT_ONCE (each person's own come back too).
    for (const { received } of people)
      expect(received.updates).toBeLessThanOrEqual((PEOPLE * KEYS_AT_ONCE) / 2);
  });

  it("shows everyone's last cursor, in fewer frames than cursor moves", async () => {
    for (const { received } of people) received.awareness = 0;
    const moves = 10;
    for (const { document } of people) {
      const text = document.doc.getText(COLLAB_TEXT);
      for (let m = 0; m < moves; m++) {
        const at = Y.relativePositionToJSON(Y.createRelativePositionFromTypeIndex(text, m));
        document.provider.setAwarenessField("cursor", { anchor: at, head: at });
      }
    }
    const last = Y.relativePositionToJSON(
      Y.createRelativePositionFromTypeIndex(
        people[0]?.document.doc.getText(COLLAB_TEXT) as Y.Text,
        moves - 1,
      ),
    );
    await until(
      () =>
        people.every(({ document }) => {
          const cursors = [...(document.provider.awareness?.getStates().values() ?? [])].filter(
            (state) => JSON.stringify(state.cursor?.anchor) === JSON.stringify(last),
          );
          return cursors.length === PEOPLE;
        }),
      "everyone sees everyone's last cursor",
    );
    for (const { received } of people) expect(received.awareness).toBeLessThanOrEqual((PEOPLE * moves) / 2);
  });
});

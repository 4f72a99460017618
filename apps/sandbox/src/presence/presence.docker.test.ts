import type { PresencePerson } from "@coder/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, type TestService, waitForStatus } from "../testing/harness";
import { subscriptionEvents } from "../testing/trpc-sse";
import { MAX_TABS_PER_PERSON } from "./presence-board";

describe("presence over the wire", () => {
  let t: TestService;
  let workspaceId: string;
  const streams = new AbortController();
  beforeAll(async () => {
    t = await startTestService();
    workspaceId = (await t.api.workspace.create.mutate({ name: "tabs" })).id;
    // Running before the test ends: the clean-up cannot remove a container still being made.
    await waitForStatus(t.api, workspaceId, "running");
  });
  afterAll(async () => {
    streams.abort();
    await t?.close();
  });

  const tab = (clientId: string) =>
    subscriptionEvents<PresencePerson[]>(
      t.url,
      t.cookie,
      "presence.watch",
      { workspaceId, clientId },
      streams.signal,
    );

  it(`answers a page that opens more than ${MAX_TABS_PER_PERSON} tabs with a plain "too many" error`, async () => {
    for (let i = 0; i < MAX_TABS_PER_PERSON; i++) {
      const first = await tab(`tab-number-${i}`).next();
      expect(first.value).toHaveLength(1);
    }
    const refused = await tab("tab-one-too-many")
      .next()
      .then(
        () => "",
        (error: Error) => error.message,
      );
    expect(refused).toContain("TOO_MANY_REQUESTS");
    expect(refused).toContain(`at most ${MAX_TABS_PER_PERSON} tabs`);
  });
});

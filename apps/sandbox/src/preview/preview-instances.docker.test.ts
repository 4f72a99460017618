import { afterAll, describe, expect, it } from "vitest";
import { createPostgresDatabase } from "../db/testing/test-database";
import { closeWithin, wsClose } from "../testing/close-within";
import { instanceDriver, type SharedPlace, sharedPlace, waitForStatus } from "../testing/harness";
import { enterPreview, opened, previewSocket, request } from "./testing/preview-client";
import { APP_PORT, startApp } from "./testing/start-app";

/** The same preview URL, addressed to another instance (its port). */
const on = (url: string, service: { url: string }) => {
  const moved = new URL(url);
  moved.port = new URL(service.url).port;
  return moved.href;
};

describe("two service instances on one PostgreSQL database, a preview opened through one of them", () => {
  let place: SharedPlace | undefined;
  afterAll(async () => {
    await place?.close();
  });

  it("takes the token on the other instance, and a visibility change there closes the preview's WebSocket within a second", async () => {
    place = sharedPlace({ CODER_DATABASE_URL: await createPostgresDatabase() });
    const a = await place.start();
    const b = await place.start();
    const { id } = await a.api.workspace.create.mutate({ name: "previews" });
    await waitForStatus(a.api, id, "running");
    const app = await startApp(a.api, instanceDriver(place.instance), id);
    try {
      // Opened through A, entered through B.
      const { url } = await a.api.preview.open.mutate({ workspaceId: id, port: APP_PORT });
      const { cookie, answer } = await enterPreview(on(url, b.service));
      expect(answer.status).toBe(302);
      const root = on(new URL("/", url).href, b.service);
      expect((await request(root, { headers: { cookie } })).body).toContain("hello from the app");

      const ws = previewSocket(root, cookie);
      await opened(ws);
      const closed = closeWithin(wsClose(ws), 1_000);
      await a.api.preview.setVisibility.mutate({ workspaceId: id, port: APP_PORT, visibility: "workspace" });
      expect(await closed).not.toBeNull();
      // The owner is still let in under the new rule.
      expect((await request(root, { headers: { cookie } })).status).toBe(200);
    } finally {
      await app.close();
    }
  });
});

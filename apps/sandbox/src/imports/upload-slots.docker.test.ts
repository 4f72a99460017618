import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { joinShare, startTestService, type TestService, waitForStatus } from "../testing/harness";

/** `POST /api/uploads` of a small file, as the browser sends it; the status and the sentence. */
async function upload(url: string, cookie: string): Promise<[number, string | undefined]> {
  const res = await fetch(`${url}/api/uploads?name=notes.txt`, {
    method: "POST",
    headers: { origin: url, "content-type": "application/octet-stream", cookie },
    body: new Uint8Array(Buffer.from("some notes\n")),
  });
  const body = (await res.json()) as { error?: string };
  return [res.status, body.error];
}

describe("upload slots", () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService();
  });
  afterAll(async () => {
    await t?.close();
  });

  it("an editor guest who joins one link five times and sends twenty uploads at once leaves the owner's uploads alone", async () => {
    const id = (await t.api.workspace.create.mutate({ name: "slots" })).id;
    await waitForStatus(t.api, id, "running");
    const link = await t.api.share.create.mutate({ workspaceId: id, role: "editor" });
    const guests = await Promise.all(
      Array.from({ length: 5 }, (_, i) => joinShare(t.url, link.url, `Mal ${i}`)),
    );
    const answers = await Promise.all(
      guests.flatMap((cookie) => Array.from({ length: 4 }, () => upload(t.url, cookie))),
    );
    // One link is one person: four uploads between all its guests, the rest told why.
    expect(answers.filter(([status]) => status === 201)).toHaveLength(4);
    const refused = answers.filter(([status]) => status !== 201);
    expect(refused).toHaveLength(16);
    for (const [status, error] of refused) {
      expect(status).toBe(429);
      expect(error).toMatch(/^you already have 4 uploads arriving or waiting to be unpacked/);
    }
    for (let i = 0; i < 4; i++) expect(await upload(t.url, t.cookie)).toEqual([201, undefined]);
  });
});

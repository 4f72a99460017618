import { AccessCloseCode } from "@coder/protocol";
import { afterAll, describe, expect, it } from "vitest";
import { createPostgresDatabase } from "../db/testing/test-database";
import { closeWithin, wsClose } from "../testing/close-within";
import { openTerminal, type SharedPlace, sharedPlace, trpcClient, waitForStatus } from "../testing/harness";
import { Accounts } from "./accounts";
import { SESSION_COOKIE } from "./http-auth";

describe("two service instances on one PostgreSQL database, a user suspended on one of them", () => {
  let place: SharedPlace | undefined;
  afterAll(async () => {
    await place?.close();
  });

  it("closes the user's terminal open on the other instance within a second", async () => {
    place = sharedPlace({ CODER_DATABASE_URL: await createPostgresDatabase() });
    const a = await place.start();
    const b = await place.start();
    const mia = await new Accounts(b.service.db).create({
      email: "mia@example.com",
      displayName: "Mia",
      siteRole: "member",
    });
    const miaCookie = `${SESSION_COOKIE}=${(await b.service.auth.createSession(mia.id)).cookie}`;
    const url = b.service.url;
    const api = trpcClient(url, miaCookie);
    const { id } = await api.workspace.create.mutate({ name: "mias" });
    await waitForStatus(api, id, "running");
    const terminal = await openTerminal(url, miaCookie, id, "main");
    await terminal.waitFor(/\$ /);

    // The admin suspends Mia through instance A, which holds none of her connections.
    const closed = closeWithin(wsClose(terminal.ws), 1_000);
    const suspended = a.api.user.update.mutate({ userId: mia.id, suspended: true });
    const [code, user] = await Promise.all([closed, suspended]);
    // B's sweeper ends her session (4401), unless the stop of her workspace, which A asks for
    // next, ends the shell first (1000): either way the terminal is closed within the second.
    expect([AccessCloseCode.LoggedOut, 1000]).toContain(code);
    expect(user.suspendedAt).not.toBeNull();
    await expect(trpcClient(url, miaCookie).workspace.list.query()).rejects.toThrow(/log in/);
  });
});

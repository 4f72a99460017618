import { describe, expect, it } from "vitest";
import { login, trpcClient, waitForStatus } from "../apps/sandbox/src/testing/harness";
import { useStackAndBrowser } from "./support/stack-and-browser";

describe("joining a workspace through a share link", () => {
  const ide = useStackAndBrowser();

  it("a guest opens the link, gives a name and lands in the shared workspace, and the owner sees them joined", async () => {
    const owner = trpcClient(ide.stack.url, await login(ide.stack.url, ide.stack.token));
    const { id } = await owner.workspace.create.mutate({ name: "shared" });
    await waitForStatus(owner, id, "running");
    const link = await owner.share.create.mutate({ workspaceId: id, role: "viewer" });

    const guest = await ide.browser.newContext();
    const page = await guest.newPage();
    await page.goto(link.url);
    await page.getByTestId("join-name").fill("Ada");
    await page.getByTestId("join-submit").click();
    await page.waitForURL((u) => u.pathname === `/w/${id}`);
    const [listed] = await owner.share.list.query({ workspaceId: id });
    expect(listed?.joined).toEqual(["Ada"]);
    await guest.close();
  });

  it("a wrong link says plainly that it is not valid", async () => {
    const guest = await ide.browser.newContext();
    const page = await guest.newPage();
    await page.goto(`${ide.stack.url}/s/notasecretofanylink`);
    await page.getByTestId("join-name").fill("Mallory");
    await page.getByTestId("join-submit").click();
    await expect
      .poll(() => page.getByTestId("join-error").textContent())
      .toBe("this link is not valid: it may have been revoked or expired");
    await guest.close();
  });
});

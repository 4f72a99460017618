import type { TRPCClient } from "@trpc/client";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { login, trpcClient, waitForStatus } from "../apps/sandbox/src/testing/harness";
import type { AppRouter } from "../apps/sandbox/src/trpc/router";
import { peopleOn } from "./support/people";
import { useStackAndBrowser } from "./support/stack-and-browser";

/** The talk of one person's page, once its first lines arrived. */
const READY_TALK = '[data-testid=talk-panel][data-ready="true"]';

/**
 * An owner, an editor guest and a viewer guest, each in their own browser context, talk to each
 * other beside the agent's chat: lines arrive live under the writer's login name and guest mark,
 * the owner decides whether viewers write, and a revoked guest's end is told to everyone.
 */
describe("the people's talk, in Chromium", () => {
  const sb = useStackAndBrowser();
  let api: TRPCClient<AppRouter>;
  let workspaceId: string;
  const { ownerIde, join } = peopleOn(
    () => ({ stack: sb.stack, browser: sb.browser, api, workspaceId }),
    READY_TALK,
  );

  beforeAll(async () => {
    api = trpcClient(sb.stack.url, await login(sb.stack.url, sb.stack.token));
    workspaceId = (await api.workspace.create.mutate({ name: "talking" })).id;
    await waitForStatus(api, workspaceId, "running");
  });

  const line = (page: Page, kind: string, text: string) =>
    page.locator(`[data-testid=talk-line][data-kind=${kind}]`, { hasText: text });

  it("a viewer's message appears live for the owner and the editor with the viewer's name and guest mark; the owner turns viewers' writing off and the viewer's input goes; a revoked guest's end is told", async () => {
    const owner = await ownerIde();
    const editor = await join("editor", "Eddie");
    const viewer = await join("viewer", "Vera");
    await line(owner, "joined", "Vera").waitFor({ timeout: 15_000 });
    // Having lines, the page asks again only for those after its last one.
    const look = await owner.waitForRequest((r) => r.url().includes("talk.list"), { timeout: 10_000 });
    expect(decodeURIComponent(look.url())).toMatch(/"after":\d+/);

    // Only the owner has the switch; the guests see no control their role cannot use.
    expect(await editor.page.getByTestId("talk-viewers-may-write").count()).toBe(0);
    expect(await viewer.page.getByTestId("talk-viewers-may-write").count()).toBe(0);

    const text = "hello from Vera <b>not bold</b>";
    await viewer.page.getByTestId("talk-input").fill(text);
    await viewer.page.getByTestId("talk-input").press("Enter");
    for (const page of [owner, editor.page]) {
      const message = line(page, "message", "hello from Vera");
      await message.waitFor({ timeout: 10_000 });
      expect(await message.getByTestId("talk-person").innerText()).toMatch(/^Vera\s*guest$/);
      await message.getByTestId("guest-badge").waitFor();
      // Plain text: the markup is shown as typed, never made into elements.
      expect(await message.locator("p").innerText()).toBe(text);
      expect(await message.locator("b").count()).toBe(0);
    }

    const input = viewer.page.getByTestId("talk-input");
    await owner.getByTestId("talk-viewers-may-write").uncheck();
    await input.waitFor({ state: "detached", timeout: 10_000 });
    expect(await viewer.page.getByTestId("talk-send").count()).toBe(0);
    await viewer.page.getByText("The owner has turned off writing for viewers.").waitFor();
    // The editor still writes, and the viewer still reads.
    await editor.page.getByTestId("talk-input").fill("viewers listen for now");
    await editor.page.getByTestId("talk-send").click();
    await line(viewer.page, "message", "viewers listen for now").waitFor({ timeout: 10_000 });

    await api.share.revoke.mutate({ shareId: editor.shareId });
    for (const page of [owner, viewer.page]) {
      const revoked = line(page, "revoked", "Eddie");
      await revoked.waitFor({ timeout: 10_000 });
      expect(await revoked.innerText()).toContain("lost access");
    }
    for (const page of [owner, editor.page, viewer.page]) await page.context().close();
  });
});

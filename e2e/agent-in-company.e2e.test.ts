import type { TRPCClient } from "@trpc/client";
import { beforeAll, describe, expect, it } from "vitest";
import type { AppRouter } from "../apps/sandbox/src/trpc/router";
import { useAgentWorkspace } from "./support/agent-workspace";
import type { ModelServer } from "./support/model-server";
import { peopleOn } from "./support/people";

describe("the agent in company, in two browsers", () => {
  const made = useAgentWorkspace("company");
  const { ownerIde, join } = peopleOn(made);
  let model: ModelServer;
  let api: TRPCClient<AppRouter>;
  let workspaceId: string;

  beforeAll(() => {
    ({ model, api, workspaceId } = made());
  });

  it("the owner sees the guest's prompt under her name, the approval live, and who approved it", async () => {
    // One session both open (the chat shows the newest).
    await api.session.create.mutate({ workspaceId });
    const owner = await ownerIde();
    const { page: ada } = await join("editor", "Ada");

    model.push({ toolCalls: [{ name: "bash", args: { command: "echo together" } }] }, { text: "Done." });
    await ada.getByTestId("chat-input").fill("say together");
    await ada.getByTestId("chat-send").click();

    for (const page of [owner, ada]) {
      const prompt = page.locator("[data-testid=message][data-role=user]").last();
      await expect
        .poll(() => prompt.getByTestId("message-author").textContent(), { timeout: 30_000 })
        .toBe("Ada");
      // She chose her name: every page marks her a guest.
      expect(await prompt.getByTestId("guest-badge").count()).toBe(1);
      // The request reaches both pages while it waits, with the means to answer for an editor too.
      await page.getByTestId("approval-once").waitFor({ timeout: 30_000 });
    }
    await ada.getByTestId("approval-once").click();

    for (const page of [owner, ada]) {
      const call = page.locator('[data-testid=tool-card][data-tool="bash"]').last();
      await expect
        .poll(() => call.getByTestId("tool-answered-by").textContent(), { timeout: 30_000 })
        .toBe("Approved by Ada (guest)");
      // The owner's prompt is gone: the request was answered.
      await expect.poll(() => page.getByTestId("approval").count()).toBe(0);
    }
  });
});

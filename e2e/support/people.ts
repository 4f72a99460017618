import type { TRPCClient } from "@trpc/client";
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import type { AppRouter } from "../../apps/sandbox/src/trpc/router";
import { logIn } from "./browser";

/** The IDE's chat once its first answer arrived: the page is ready to use. */
export const CHAT_READY = '[data-testid=chat-panel][data-ready="true"]';
/** A loaded 2-core machine starting the IDE for several people at once needs this long at worst. */
const READY_MS = 60_000;

/** What the people's pages need: the product, a Chromium, the owner's API client and the workspace. */
export interface SharedWorkspace {
  readonly stack: { readonly url: string; readonly token: string };
  readonly browser: Browser;
  readonly api: TRPCClient<AppRouter>;
  readonly workspaceId: string;
}

export interface JoinOptions {
  /** The guest's browser context: window size, permissions. */
  context?: BrowserContextOptions;
  /** Runs on the join page before the name is typed: look at it, or route the IDE's sockets. */
  onJoinPage?: (page: Page) => Promise<void>;
}

/** A guest's page in the IDE, and the link they joined by (to revoke it). */
export interface Guest {
  page: Page;
  shareId: string;
}

/**
 * The pages of the people on one workspace, each in a browser context of its own (its own
 * cookies): the owner logged in through the login page, guests joined through share links under a
 * name. Each returns once the IDE shows `ready`. `workspace` is read when a page is made, so it may
 * come from a `beforeAll`.
 */
export function peopleOn(workspace: () => SharedWorkspace, ready = CHAT_READY) {
  /** The owner's IDE on the workspace. */
  async function ownerIde(context?: BrowserContextOptions): Promise<Page> {
    const { stack, browser, workspaceId } = workspace();
    const page = await (await browser.newContext(context)).newPage();
    await logIn(page, stack.url, stack.token);
    await page.goto(`${stack.url}/w/${workspaceId}`);
    await page.locator(ready).waitFor({ timeout: READY_MS });
    return page;
  }

  /** A new person opens the link `url`, gives `name` and lands in the IDE. */
  async function joinByLink(url: string, name: string, options: JoinOptions = {}): Promise<Page> {
    const { browser, workspaceId } = workspace();
    const page = await (await browser.newContext(options.context)).newPage();
    await page.goto(url);
    await options.onJoinPage?.(page);
    await page.getByTestId("join-name").fill(name);
    await page.getByTestId("join-submit").click();
    await page.waitForURL((u) => u.pathname === `/w/${workspaceId}`, { timeout: READY_MS });
    await page.locator(ready).waitFor({ timeout: READY_MS });
    return page;
  }

  /** A guest joins as `role` through a fresh link the owner makes through the API. */
  async function join(role: "viewer" | "editor", name: string, options?: JoinOptions): Promise<Guest> {
    const { api, workspaceId } = workspace();
    const { url, id } = await api.share.create.mutate({ workspaceId, role });
    return { page: await joinByLink(url, name, options), shareId: id };
  }

  return { ownerIde, joinByLink, join };
}

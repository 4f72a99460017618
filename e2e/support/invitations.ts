import type { Browser, Page } from "playwright-core";
import { logIn } from "./browser";

/**
 * The administrator in a browser of their own, on the administration page, having made an
 * invitation link there for `email`: the page, and the link to hand over.
 */
export async function inviteOnAdminPage(
  browser: Browser,
  stack: { readonly url: string; readonly token: string },
  email: string,
): Promise<{ admin: Page; url: string }> {
  const admin = await (await browser.newContext()).newPage();
  await logIn(admin, stack.url, stack.token);
  await admin.getByTestId("admin-link").click();
  await admin.waitForURL(/\/admin$/);
  await admin.getByTestId("invite-email").fill(email);
  await admin.getByTestId("invite").click();
  return { admin, url: await admin.getByTestId("invite-url").inputValue() };
}

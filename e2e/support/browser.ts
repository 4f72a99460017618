import { type Browser, chromium, type Page } from "playwright-core";

/** Debian's Chromium, headless, with the flags that keep it off the (closed) network. */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-dev-shm-usage",
    ],
  });
}

/** Logs in through the login page, as a person would. */
export async function logIn(page: Page, url: string, token: string): Promise<void> {
  await page.goto(url);
  await page.waitForURL(/\/login/);
  await page.getByTestId("login-token").fill(token);
  await page.getByTestId("login-submit").click();
  await page.waitForURL((u) => !u.pathname.startsWith("/login"));
}

/**
 * Logs in, creates a workspace named `name` from the list page and opens it, as a person would;
 * returns once its terminal shows a prompt.
 */
export async function createAndOpenWorkspace(
  page: Page,
  stack: { url: string; token: string },
  name: string,
) {
  await logIn(page, stack.url, stack.token);
  await page.getByTestId("workspace-name").fill(name);
  await page.getByTestId("workspace-create").click();
  const row = page.getByTestId("workspace-row").filter({ hasText: name });
  await row.and(page.locator('[data-status="running"]')).waitFor({ timeout: 60_000 });
  await row.getByTestId("workspace-open").click();
  await page.waitForURL(/\/w\//);
  const terminal = page.getByTestId("terminal");
  await terminal.and(page.locator('[data-state="open"]')).waitFor({ timeout: 30_000 });
  await waitForTerminal(page, /\$\s*$/m);
}

/** The text the terminal shows (xterm's DOM rows). */
export async function terminalText(page: Page): Promise<string> {
  return page.locator("[data-testid=terminal]:not([hidden]) .xterm-rows").innerText();
}

/** Waits until the terminal shows `re`; the error quotes what it shows instead. */
export async function waitForTerminal(page: Page, re: RegExp, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let text = "";
  while (Date.now() < deadline) {
    text = await terminalText(page).catch(() => "");
    if (re.test(text)) return;
    await page.waitForTimeout(100);
  }
  throw new Error(`the terminal never showed ${re}; it shows:\n${text}`);
}

/**
 * Collects the page's Content-Security-Policy violations as they happen (the DOM event and
 * Chromium's console report), so a test can show that the IDE works under its policy.
 */
export async function recordCspViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  await page.exposeBinding("__cspViolation", (_source, text: string) => {
    violations.push(text);
  });
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      const report = (window as unknown as { __cspViolation(text: string): void }).__cspViolation;
      report(
        `${e.effectiveDirective} blocked ${e.blockedURI || "inline"} in ${e.sourceFile}:${e.lineNumber}`,
      );
    });
  });
  page.on("console", (message) => {
    if (/Content.Security.Policy/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

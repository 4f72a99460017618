// Loads one page in Chromium and prints one line of JSON about it: the HTTP status, the title, the
// visible text, the console errors, the failed requests and (when asked) a PNG screenshot.
// The request is the first argument, as JSON:
//   { url, screenshot, timeoutMs, maxTextChars, maxEntries, maxEntryChars, maxScreenshotBytes }
// The service treats whatever this prints as hostile and checks it again.
import { chromium } from "playwright-core";

const request = JSON.parse(process.argv[2] ?? "{}");
const { url, screenshot, timeoutMs, maxTextChars, maxEntries, maxEntryChars, maxScreenshotBytes } = request;
const VIEWPORT = { width: 1280, height: 800 };
/** After `load`, how long the page may keep fetching before its text is read anyway. */
const SETTLE_MS = 2000;

// The service kills the container at its deadline too; this one leaves room for an answer.
setTimeout(
  () => answer({ ok: false, error: `the page did not finish loading in ${timeoutMs / 1000} s` }),
  timeoutMs,
);

function answer(value) {
  process.stdout.write(`${JSON.stringify(value)}\n`, () => process.exit(0));
}

const cut = (text) => (text.length > maxEntryChars ? `${text.slice(0, maxEntryChars)}…` : text);
const consoleErrors = [];
const failedRequests = [];
const push = (list, entry) => {
  if (list.length < maxEntries) list.push(entry);
};

/** What the page came to; a page that could not be loaded answers `{ ok: false, error }`. */
async function loadPage() {
  // Chromium's own sandbox needs capabilities the container does not have: the container (no
  // capabilities, read-only root, the workspace's network namespace only) is the boundary.
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--no-first-run"],
    timeout: timeoutMs,
  });
  const page = await browser.newPage({ viewport: VIEWPORT });
  page.on("console", (message) => {
    if (message.type() === "error") push(consoleErrors, cut(message.text()));
  });
  page.on("pageerror", (error) => push(consoleErrors, cut(`Uncaught ${error.message}`)));
  page.on("requestfailed", (req) =>
    push(failedRequests, { url: cut(req.url()), reason: cut(req.failure()?.errorText ?? "failed") }),
  );
  page.on("response", (res) => {
    if (res.status() >= 400) push(failedRequests, { url: cut(res.url()), reason: `HTTP ${res.status()}` });
  });
  const response = await page.goto(url, { waitUntil: "load", timeout: timeoutMs - SETTLE_MS });
  await page.waitForLoadState("networkidle", { timeout: SETTLE_MS }).catch(() => undefined);
  const text = await page.evaluate(() => document.body?.innerText ?? "");
  const result = {
    ok: true,
    url: cut(page.url()),
    status: response?.status() ?? null,
    title: cut(await page.title()),
    text: text.slice(0, maxTextChars),
    textTruncated: text.length > maxTextChars,
    consoleErrors,
    failedRequests,
  };
  if (screenshot) {
    const png = await page.screenshot({ type: "png" });
    if (png.length <= maxScreenshotBytes) result.screenshot = png.toString("base64");
    else result.screenshotOmitted = `the screenshot was ${png.length} bytes, more than ${maxScreenshotBytes}`;
  }
  return result;
}

// The first line of Playwright's message says what happened (net::ERR_CONNECTION_REFUSED at ...).
answer(
  await loadPage().catch((error) => ({
    ok: false,
    error: cut(String(error?.message ?? error).split("\n")[0]),
  })),
);

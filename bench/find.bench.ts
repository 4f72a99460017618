import { type SearchEvent, textQuery } from "@coder/protocol";
import { execIn, login, trpcClient, waitForStatus } from "../apps/sandbox/src/testing/harness";
import { subscriptionEvents } from "../apps/sandbox/src/testing/trpc-sse";
import { launchBrowser, logIn } from "../e2e/support/browser";
import { startStack } from "../e2e/support/stack";
import { ensureWebBuild } from "../scripts/lib/web-build.mjs";
import { type BenchResult, percentile, round } from "./types";

const QUICK_OPEN_FILES = 50_000;
const SEARCH_FILES = 20_000;
const SEARCH_ROUNDS = 7;
/** Runs first, unmeasured: the page cache, the daemon's and the service's code paths settle. */
const SEARCH_WARMUP = 3;

/** 50 000 empty files in 500 folders. */
const MAKE_LISTED_FILES = `cd /workspace && seq 0 499 | sed 's|^|q/d|' | xargs mkdir -p && seq 0 ${QUICK_OPEN_FILES - 1} | awk '{printf "q/d%d/f%05d.txt\\n", int($1/100), $1}' | xargs touch`;

/** 20 000 files of 40 lines of prose in 200 folders; three of them hold the needle. */
const MAKE_SEARCHED_FILES = `cd /workspace && rm -rf q && python3 - <<'EOF'
import os
line = "the quick brown fox jumps over the lazy dog while the compiler checks every branch\\n"
for i in range(${SEARCH_FILES}):
    folder = f"s/d{i // 100}"
    os.makedirs(folder, exist_ok=True)
    body = line * 40
    if i in (7, 7777, 17777):
        body += "here is the rare-needle-token\\n"
    with open(f"{folder}/f{i}.txt", "w") as f:
        f.write(body)
EOF`;

/**
 * rg as the daemon runs it, timed inside the container (no exec start-up in the number). Its
 * stdin is /dev/null as in the daemon: given a pipe, rg would search the pipe instead of the
 * folder; its output goes to a file, since into /dev/null rg stops at the first match.
 */
const RAW_RG = `cd /workspace && s=$(date +%s%N) && rg --json --hidden --no-require-git --glob '!.git' --ignore-case --fixed-strings --regexp rare-needle-token < /dev/null > /tmp/rg-bench.json; e=$(date +%s%N); echo $(( (e - s) / 1000 ))`;

/**
 * Runs in the page (as text: the bench's own functions are rewritten by its loader): presses
 * Ctrl-P, or types `text` into quick open, and measures until `selector` shows.
 */
const TIME_TO_SHOWN = `(selector, text) => new Promise((resolve) => {
  const start = performance.now();
  const observer = new MutationObserver(() => {
    if (!document.querySelector(selector)) return;
    observer.disconnect();
    resolve(performance.now() - start);
  });
  observer.observe(document.body, { childList: true, subtree: true, attributes: true });
  if (text === null) {
    window.dispatchEvent(new KeyboardEvent("keydown", { key: "p", code: "KeyP", ctrlKey: true, bubbles: true }));
  } else {
    const input = document.querySelector("[data-testid=quick-open-input]");
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value").set.call(input, text);
    input.dispatchEvent(new Event("input", { bubbles: true }));
  }
})`;

/**
 * Quick open in Chromium on a workspace of 50 000 files: from Ctrl-P to the first file listed,
 * before the list was fetched (it comes from the container) and once it is known, and from typing a
 * name to its results. Then find in files over 20 000 files through the service (the subscription
 * the browser uses, to its summary) against the same ripgrep run inside the container.
 */
export async function run(): Promise<BenchResult[]> {
  await ensureWebBuild();
  const [stack, browser] = await Promise.all([startStack(), launchBrowser()]);
  try {
    const cookie = await login(stack.url, stack.token);
    const api = trpcClient(stack.url, cookie);
    const { id } = await api.workspace.create.mutate({ name: "find-bench" });
    await waitForStatus(api, id, "running");
    const made = await execIn(stack.instance, id, ["sh", "-c", MAKE_LISTED_FILES]);
    if (made.code !== 0) throw new Error(`could not make the files: ${made.out}`);
    // The daemon's watcher has 50 000 new files to take in; the page opens once it has (a
    // workspace that already holds them, as after a clone), with nothing listed in the page yet.
    await api.files.list.query({ workspaceId: id });

    const page = await browser.newPage();
    await logIn(page, stack.url, stack.token);
    await page.goto(`${stack.url}/w/${id}`);
    await page.locator('[data-testid=tree-item][data-path="q"]').waitFor({ timeout: 60_000 });
    /** Ms from a Ctrl-P keydown (or typing `text`) until a quick-open item matching `selector` is shown. */
    const timeTo = (selector: string, text?: string) =>
      page.evaluate(
        `(${TIME_TO_SHOWN})(${JSON.stringify(selector)}, ${JSON.stringify(text ?? null)})`,
      ) as Promise<number>;
    const anyFile = "[data-testid=quick-open-item] [data-path]";
    const cold = await timeTo(anyFile);
    const listed = await page.getByTestId("quick-open-item").count();
    await page.keyboard.press("Escape");
    const warm = await timeTo(anyFile);
    const typed = await timeTo('[data-testid=quick-open-item] [data-path="q/d499/f49999.txt"]', "f49999");
    await page.keyboard.press("Escape");
    if (listed === 0) throw new Error("quick open listed nothing");

    const searched = await execIn(stack.instance, id, ["sh", "-c", MAKE_SEARCHED_FILES]);
    if (searched.code !== 0) throw new Error(`could not make the searched files: ${searched.out}`);
    const input = { workspaceId: id, query: textQuery.parse({ pattern: "rare-needle-token" }) };
    const viaService: number[] = [];
    const raw: number[] = [];
    // Warm up first, then interleave so the machine's noise hits both alike.
    for (let i = 0; i < SEARCH_WARMUP + SEARCH_ROUNDS; i++) {
      const start = performance.now();
      let found = 0;
      for await (const event of subscriptionEvents<SearchEvent>(
        stack.url,
        cookie,
        "files.search",
        input,
        new AbortController().signal,
      )) {
        if (event.type === "done") found = event.matchCount;
      }
      const serviceMs = performance.now() - start;
      if (found !== 3) throw new Error(`the search found ${found} matches, not 3`);
      const rawRun = await execIn(stack.instance, id, ["sh", "-c", RAW_RG]);
      const rawMs = Number(rawRun.out.trim()) / 1000;
      if (!Number.isFinite(rawMs)) throw new Error(`raw rg: ${rawRun.out}`);
      if (i < SEARCH_WARMUP) continue;
      viaService.push(serviceMs);
      raw.push(rawMs);
    }
    const serviceP50 = percentile(viaService, 50);
    const rawP50 = percentile(raw, 50);
    const ratio = round(serviceP50 / rawP50);
    return [
      {
        name: `quick open: Ctrl-P to the first files listed, ${QUICK_OPEN_FILES.toLocaleString("en")} files, list not yet fetched`,
        value: round(cold, 1),
        unit: "ms",
      },
      { name: "quick open: Ctrl-P to the first files listed, list known", value: round(warm, 1), unit: "ms" },
      {
        name: `quick open: typing a name to its file among ${QUICK_OPEN_FILES.toLocaleString("en")}`,
        value: round(typed, 1),
        unit: "ms",
      },
      {
        name: `find in files over ${SEARCH_FILES.toLocaleString("en")} files through the service p50`,
        value: round(serviceP50, 1),
        unit: "ms",
        ratio,
        target: "≤ 1.5× raw rg",
        pass: ratio <= 1.5,
        notes: `median of ${SEARCH_ROUNDS} interleaved runs each after ${SEARCH_WARMUP} warm-up runs; raw rg timed inside the container: p50 ${round(rawP50, 1)} ms`,
      },
      {
        name: `raw rg in the container over ${SEARCH_FILES.toLocaleString("en")} files p50`,
        value: round(rawP50, 1),
        unit: "ms",
      },
    ];
  } finally {
    await browser.close();
    await stack.close();
  }
}

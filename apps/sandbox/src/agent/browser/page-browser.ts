import { type PreviewPage, ToolError } from "@coder/tools";
import type { WorkspaceDriver } from "../../driver/workspace-driver";
import { MAX_ANSWER_CHARS, PAGE_LIMITS, type PageAnswer, readPageAnswer } from "./page-answer";
import { pngSize } from "./png-size";

/** How long the page may take to load (and settle), as the browser counts it. */
const PAGE_TIMEOUT_MS = 30_000;
/** The job's deadline beyond that: making, starting and removing its container, launching Chromium. */
const JOB_OVERHEAD_MS = 20_000;
/** A screenshot larger than this is not one of the viewport the browser was given. */
const MAX_SCREENSHOT_SIDE = 4096;

export interface PreviewRequest {
  port: number;
  path: string;
  screenshot: boolean;
}

/**
 * Loads pages a workspace serves, for the agent's `preview` tool: in a short-lived browser job
 * beside the workspace (the driver's `browserJob`), never in a browser on the host. Whatever the
 * job prints is checked and bounded here; what goes wrong reads as one plain sentence for the
 * model, and the details go to the service log.
 */
export class PageBrowser {
  /**
   * The last load asked for in each workspace. One browser per workspace at a time: a batch of
   * previews waits its turn instead of starting ten Chromiums beside one workspace.
   */
  private readonly latest = new Map<string, Promise<unknown>>();

  constructor(
    private readonly driver: WorkspaceDriver,
    private readonly image: string,
    private readonly log: (line: string) => void,
  ) {}

  /** Loads the page; an abort of `signal` (the turn was cancelled) stops the browser at once. */
  load(workspaceId: string, request: PreviewRequest, signal?: AbortSignal): Promise<PreviewPage> {
    const previous = this.latest.get(workspaceId) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(() => this.loadNow(workspaceId, request, signal));
    this.latest.set(workspaceId, next);
    const forget = () => {
      if (this.latest.get(workspaceId) === next) this.latest.delete(workspaceId);
    };
    next.then(forget, forget);
    return next;
  }

  private async loadNow(
    workspaceId: string,
    request: PreviewRequest,
    signal?: AbortSignal,
  ): Promise<PreviewPage> {
    if (signal?.aborted) throw cancelled();
    if ((await this.driver.state(workspaceId)) !== "running") {
      throw new ToolError(
        "unavailable",
        "the workspace is not running",
        "start the workspace, then try again",
      );
    }
    const url = new URL(request.path, `http://127.0.0.1:${request.port}`);
    const args = JSON.stringify({
      url: url.href,
      screenshot: request.screenshot,
      timeoutMs: PAGE_TIMEOUT_MS,
      ...PAGE_LIMITS,
    });
    const timeoutMs = PAGE_TIMEOUT_MS + JOB_OVERHEAD_MS;
    const started = Date.now();
    let job: { exitCode: number; stdout: string };
    try {
      job = await this.driver.browserJob(workspaceId, {
        image: this.image,
        args: [args],
        timeoutMs,
        outputLimit: MAX_ANSWER_CHARS,
        signal,
      });
    } catch (error) {
      if (signal?.aborted) throw cancelled();
      this.log(`preview of port ${request.port} in ${workspaceId}: ${(error as Error).stack ?? error}`);
      if (Date.now() - started >= timeoutMs) {
        throw new ToolError("timeout", `the browser did not finish within ${timeoutMs / 1000} s`);
      }
      throw new ToolError("unavailable", "the browser could not be started beside the workspace");
    }
    const answer = readPageAnswer(job.stdout);
    if (!answer) {
      this.log(
        `preview of port ${request.port} in ${workspaceId}: exit code ${job.exitCode}, ` +
          `unreadable answer of ${job.stdout.length} characters`,
      );
      throw new ToolError("io_error", "the browser gave no readable answer");
    }
    if (!answer.ok) throw loadFailure(request.port, answer.error);
    return this.page(answer, request.screenshot);
  }

  private page(answer: Extract<PageAnswer, { ok: true }>, screenshotAsked: boolean): PreviewPage {
    const page: PreviewPage = {
      url: answer.url,
      status: answer.status,
      title: answer.title,
      text: answer.text,
      text_truncated: answer.textTruncated,
      console_errors: answer.consoleErrors,
      failed_requests: answer.failedRequests,
    };
    if (!screenshotAsked) return page;
    if (answer.screenshot === undefined) {
      page.screenshot_note = answer.screenshotOmitted ?? "the browser took none";
      return page;
    }
    const size = pngSize(Buffer.from(answer.screenshot, "base64"));
    if (!size || size.width > MAX_SCREENSHOT_SIDE || size.height > MAX_SCREENSHOT_SIDE) {
      page.screenshot_note = "the browser's screenshot was not a PNG of the page";
      return page;
    }
    page.screenshot = { media_type: "image/png", ...size, data: answer.screenshot };
    return page;
  }
}

/** A page that did not load, as the model should read it. */
function loadFailure(port: number, error: string): ToolError {
  if (/ERR_CONNECTION_REFUSED|ERR_EMPTY_RESPONSE|ERR_CONNECTION_RESET/.test(error)) {
    return new ToolError(
      "unavailable",
      `nothing answers on port ${port} in the workspace`,
      "start the server in the background (e.g. `npm run dev > dev.log 2>&1 &`), wait until it listens, then call preview again",
    );
  }
  if (/Timeout|did not finish loading/i.test(error)) {
    return new ToolError(
      "timeout",
      `the page on port ${port} did not finish loading in ${PAGE_TIMEOUT_MS / 1000} s`,
    );
  }
  return new ToolError("unavailable", `the page on port ${port} could not be loaded: ${error}`);
}

function cancelled(): ToolError {
  return new ToolError("aborted", "the preview was cancelled with the turn");
}

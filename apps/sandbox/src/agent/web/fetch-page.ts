import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { ToolError } from "@coder/tools";
import { type AddressPolicy, blockedReason } from "./address-policy";
import { type DnsLookup, guardedLookup } from "./guarded-lookup";
import { htmlToMarkdown, htmlToText } from "./to-markdown";

export const MAX_BODY_BYTES = 5 * 1024 * 1024;
const MAX_REDIRECTS = 5;
/** What the model gets at most; the service cannot spill into the workspace, so it cuts here. */
export const MAX_CONTENT_CHARS = 40_000;

export interface FetchOptions {
  format: "markdown" | "text" | "html";
  timeoutMs: number;
  signal: AbortSignal;
  /** Which addresses are refused (default: everything that is not public). */
  policy?: AddressPolicy;
  /** How names are resolved (default: the system resolver). */
  resolve?: DnsLookup;
  maxBytes?: number;
}

export interface FetchedPage {
  url: string;
  content_type: string;
  content: string;
}

const TEXTUAL = /^(text\/|application\/(json|xml|javascript|ld\+json|x-yaml|yaml|toml)|[^;]*\+(json|xml))/i;
const HTML = /^(text\/html|application\/xhtml\+xml)/i;

function refuse(message: string): ToolError {
  return new ToolError("permission_denied", message, "only public http(s) addresses can be fetched");
}

/** Refuses a URL before any connection: wrong scheme, credentials, or a literal private address. */
function checkUrl(url: URL, policy: AddressPolicy): void {
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw refuse(`${url.protocol.replace(":", "")} addresses cannot be fetched`);
  }
  if (url.username || url.password) throw refuse("addresses with credentials cannot be fetched");
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host)) {
    const reason = policy(host);
    if (reason) throw refuse(`${url.host} is refused: ${reason}`);
  }
}

function request(
  url: URL,
  options: Required<Pick<FetchOptions, "policy">> & FetchOptions,
  signal: AbortSignal,
) {
  const client = url.protocol === "https:" ? https : http;
  return new Promise<http.IncomingMessage>((resolve, reject) => {
    const req = client.request(
      url,
      {
        method: "GET",
        agent: false,
        signal,
        lookup: guardedLookup(options.policy, options.resolve),
        headers: {
          "user-agent": "coder-webfetch/1.0",
          accept:
            options.format === "html"
              ? "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5"
              : "text/html;q=0.9,text/markdown,text/plain,application/json;q=0.8,*/*;q=0.5",
          "accept-encoding": "identity",
        },
      },
      resolve,
    );
    // The name was checked when it was resolved; the address really connected is checked too.
    req.on("socket", (socket) => {
      socket.once("connect", () => {
        const reason = options.policy(socket.remoteAddress ?? "");
        if (reason) req.destroy(refuse(`${url.host} is refused: ${reason}`));
      });
    });
    req.on("error", reject);
    req.end();
  });
}

async function readBody(res: http.IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(res.headers["content-length"]);
  if (Number.isFinite(declared) && declared > maxBytes) {
    res.destroy();
    throw new ToolError("io_error", `the page is larger than ${Math.round(maxBytes / 1024 / 1024)} MB`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      res.destroy();
      throw new ToolError("io_error", `the page is larger than ${Math.round(maxBytes / 1024 / 1024)} MB`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function decode(body: Buffer, contentType: string): string {
  const charset = contentType.match(/charset="?([\w-]+)/i)?.[1] ?? "utf-8";
  try {
    return new TextDecoder(charset).decode(body);
  } catch {
    return new TextDecoder("utf-8").decode(body);
  }
}

function cut(content: string): string {
  if (content.length <= MAX_CONTENT_CHARS) return content;
  return `${content.slice(0, MAX_CONTENT_CHARS)}\n\n[content cut at ${MAX_CONTENT_CHARS} of ${content.length} characters; fetch a more specific page for the rest]`;
}

function failure(error: unknown, url: URL, signal: AbortSignal, timedOut: () => boolean): ToolError {
  if (error instanceof ToolError) return error;
  const err = error as NodeJS.ErrnoException;
  if (err.code === "EBLOCKED") return refuse(`${url.host} is refused: ${err.message}`);
  if (timedOut()) return new ToolError("timeout", `${url.host} did not answer in time`);
  if (signal.aborted) return new ToolError("aborted", "the fetch was cancelled");
  if (err.code === "ENOTFOUND") return new ToolError("not_found", `${url.hostname} does not resolve`);
  return new ToolError("io_error", `fetching ${url.href} failed: ${err.message}`);
}

/**
 * Fetches a public web page for the agent: http(s) only, at most 5 MB, within the timeout, every
 * redirect hop checked like the first, HTML turned into Markdown (or text) for the model.
 */
export async function fetchPage(address: string, options: FetchOptions): Promise<FetchedPage> {
  const policy = options.policy ?? blockedReason;
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = AbortSignal.any([options.signal, timeout]);
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new ToolError("invalid_args", `${address} is not a valid address`);
  }
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    checkUrl(url, policy);
    let res: http.IncomingMessage;
    let body: Buffer;
    try {
      res = await request(url, { ...options, policy }, signal);
      const location = res.headers.location;
      if (res.statusCode && res.statusCode >= 300 && res.statusCode < 400 && location) {
        res.resume();
        url = new URL(location, url);
        continue;
      }
      if ((res.statusCode ?? 0) >= 400) {
        res.resume();
        const code = res.statusCode === 404 || res.statusCode === 410 ? "not_found" : "io_error";
        throw new ToolError(
          code,
          `${url.href} answered HTTP ${res.statusCode} ${res.statusMessage ?? ""}`.trim(),
        );
      }
      body = await readBody(res, options.maxBytes ?? MAX_BODY_BYTES);
    } catch (error) {
      throw failure(error, url, options.signal, () => timeout.aborted);
    }
    const contentType = String(res.headers["content-type"] ?? "application/octet-stream");
    if (!TEXTUAL.test(contentType)) {
      throw new ToolError("binary_file", `${url.href} is ${contentType.split(";")[0]}, not text`);
    }
    const text = decode(body, contentType);
    const content = !HTML.test(contentType)
      ? text
      : options.format === "markdown"
        ? htmlToMarkdown(text)
        : options.format === "text"
          ? htmlToText(text)
          : text;
    return { url: url.href, content_type: contentType, content: cut(content) };
  }
  throw new ToolError("io_error", `more than ${MAX_REDIRECTS} redirects from ${address}`);
}

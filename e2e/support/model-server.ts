import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { pathToFileURL } from "node:url";

/**
 * A scripted model behind a real OpenAI-compatible HTTP API (`POST /v1/chat/completions`, streamed
 * as server-sent events, and `GET /v1/models`). Each request gets the next turn of the script;
 * every request body is kept so tests can check what the agent sent (`requests`, or
 * `GET /v1/__requests` when the server runs in another process). It is the one stand-in the
 * tests use: the service talks to it through its real provider code.
 */

export interface ScriptedToolCall {
  name: string;
  /** An object is sent as JSON; a string is sent as it is (to script malformed arguments). */
  args: Record<string, unknown> | string;
  id?: string;
}

export interface ScriptedTurn {
  /** Text chunks, streamed one SSE event each. */
  text?: string | string[];
  /** Reasoning chunks (`reasoning_content`), streamed before the text. */
  reasoning?: string | string[];
  toolCalls?: ScriptedToolCall[];
  /** Wait before each chunk. */
  delayMs?: number;
  /** Answer only once this settles: a test's condition (a shell change landed) instead of a guessed delay. */
  after?: Promise<unknown>;
  /** Answer with this HTTP error instead of a stream. */
  error?: { status: number; message?: string; headers?: Record<string, string> };
  /** After the chunks, keep the stream open until the client goes away. */
  hang?: boolean;
  usage?: { prompt_tokens: number; completion_tokens: number };
}

export interface RecordedRequest {
  /** When it arrived: milliseconds since the epoch, sub-millisecond (comparable across processes). */
  at: number;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: ChatRequest;
}

export interface ChatRequest {
  model: string;
  stream?: boolean;
  messages: { role: string; content?: unknown; tool_calls?: unknown; tool_call_id?: string }[];
  tools?: { type: string; function: { name: string; description?: string; parameters?: unknown } }[];
  [key: string]: unknown;
}

export interface ModelServerOptions {
  script?: ScriptedTurn[];
  /** Answers requests once the script has run out (default: an HTTP 400 saying so). */
  fallback?: (request: RecordedRequest) => ScriptedTurn;
  /** What `GET /v1/models` lists. */
  models?: string[];
  port?: number;
}

export interface ModelServer {
  /** `http://127.0.0.1:<port>/v1`: the provider's base URL. */
  baseURL: string;
  requests: RecordedRequest[];
  /** Adds turns to the end of the script. */
  push(...turns: ScriptedTurn[]): void;
  /** What the model was told by tools (results, rejection messages, answers) in request `n` (0-based). */
  toolResults(n: number): string[];
  /** Resolves once `count` chat requests have arrived. */
  waitForRequests(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

const chunks = (value: string | string[] | undefined): string[] =>
  value === undefined ? [] : typeof value === "string" ? [value] : value;

function sendJson(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

async function readJson(req: http.IncomingMessage): Promise<unknown> {
  const parts: Buffer[] = [];
  for await (const part of req as AsyncIterable<Buffer>) parts.push(part);
  const text = Buffer.concat(parts).toString("utf8");
  return text ? JSON.parse(text) : {};
}

/** Streams one turn as `chat.completion.chunk` events, the way OpenAI's API does. */
async function stream(res: http.ServerResponse, turn: ScriptedTurn, request: ChatRequest, n: number) {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  let closed = false;
  res.on("close", () => {
    closed = true;
  });
  const base = { id: `chatcmpl-${n}`, object: "chat.completion.chunk", created: 0, model: request.model };
  const send = async (delta: Record<string, unknown>, finish: string | null = null) => {
    if (turn.delayMs) await sleep(turn.delayMs);
    if (closed) return;
    res.write(
      `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`,
    );
  };
  await send({ role: "assistant", content: "" });
  for (const r of chunks(turn.reasoning)) await send({ reasoning_content: r });
  for (const t of chunks(turn.text)) await send({ content: t });
  const calls = turn.toolCalls ?? [];
  for (const [index, call] of calls.entries()) {
    const args = typeof call.args === "string" ? call.args : JSON.stringify(call.args);
    const half = Math.ceil(args.length / 2);
    const id = call.id ?? `call_${n}_${index}`;
    await send({
      tool_calls: [
        { index, id, type: "function", function: { name: call.name, arguments: args.slice(0, half) } },
      ],
    });
    await send({ tool_calls: [{ index, function: { arguments: args.slice(half) } }] });
  }
  if (turn.hang) {
    await new Promise<void>((resolve) => res.on("close", resolve));
    return;
  }
  await send({}, calls.length > 0 ? "tool_calls" : "stop");
  if (closed) return;
  const usage = turn.usage ?? { prompt_tokens: 10, completion_tokens: 5 };
  res.write(
    `data: ${JSON.stringify({ ...base, choices: [], usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } })}\n\n`,
  );
  res.write("data: [DONE]\n\n");
  res.end();
}

function complete(res: http.ServerResponse, turn: ScriptedTurn, request: ChatRequest, n: number) {
  const calls = (turn.toolCalls ?? []).map((call, index) => ({
    id: call.id ?? `call_${n}_${index}`,
    type: "function",
    function: {
      name: call.name,
      arguments: typeof call.args === "string" ? call.args : JSON.stringify(call.args),
    },
  }));
  const message = {
    role: "assistant",
    content: chunks(turn.text).join(""),
    ...(calls.length ? { tool_calls: calls } : {}),
  };
  sendJson(res, 200, {
    id: `chatcmpl-${n}`,
    object: "chat.completion",
    created: 0,
    model: request.model,
    choices: [{ index: 0, message, finish_reason: calls.length ? "tool_calls" : "stop" }],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  });
}

export async function startModelServer(options: ModelServerOptions = {}): Promise<ModelServer> {
  const script = [...(options.script ?? [])];
  const requests: RecordedRequest[] = [];
  const waiters = new Set<() => void>();

  const server = http.createServer(async (req, res) => {
    try {
      const path = (req.url ?? "").split("?")[0] ?? "";
      if (req.method === "GET" && path.endsWith("/models")) {
        const ids = options.models ?? ["scripted"];
        sendJson(res, 200, {
          object: "list",
          data: ids.map((id) => ({ id, object: "model", owned_by: "tests" })),
        });
        return;
      }
      // What the server was sent, for a test whose server runs in another process.
      if (req.method === "GET" && path.endsWith("/__requests")) {
        sendJson(res, 200, { requests: requests.map(({ at, path: p, body }) => ({ at, path: p, body })) });
        return;
      }
      if (req.method !== "POST" || !path.endsWith("/chat/completions")) {
        sendJson(res, 404, { error: { message: "not found" } });
        return;
      }
      const at = performance.timeOrigin + performance.now();
      const body = (await readJson(req)) as ChatRequest;
      const recorded: RecordedRequest = { at, path, headers: req.headers, body };
      requests.push(recorded);
      for (const wake of waiters) wake();
      const turn = script.shift() ?? options.fallback?.(recorded);
      if (!turn) {
        sendJson(res, 400, {
          error: { message: "the scripted model server has no turn left for this request" },
        });
        return;
      }
      await turn.after;
      if (turn.error) {
        if (turn.delayMs) await sleep(turn.delayMs);
        const message = turn.error.message ?? `scripted error ${turn.error.status}`;
        sendJson(res, turn.error.status, { error: { message } }, turn.error.headers);
        return;
      }
      if (recorded.body.stream) await stream(res, turn, recorded.body, requests.length);
      else complete(res, turn, recorded.body, requests.length);
    } catch (error) {
      if (!res.headersSent) res.writeHead(500).end(String(error));
      else res.destroy();
    }
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    push: (...turns) => script.push(...turns),
    toolResults: (n) =>
      (requests[n]?.body.messages ?? [])
        .filter((m) => m.role === "tool")
        .map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content))),
    waitForRequests(count, timeoutMs = 30_000) {
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (requests.length < count) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`the model server got ${requests.length} of ${count} requests`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

// `node --import tsx e2e/support/model-server.ts script.json [port]` serves a script file (a JSON
// array of turns) for manual runs and for the browser tests' service.
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const [file, port] = process.argv.slice(2);
  const script = file ? (JSON.parse(readFileSync(file, "utf8")) as ScriptedTurn[]) : [];
  const server = await startModelServer({
    script,
    port: port ? Number(port) : 0,
    fallback: () => ({ text: "(the script has ended)" }),
  });
  console.log(`model server listening at ${server.baseURL}`);
}

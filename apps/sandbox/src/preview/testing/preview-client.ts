import http from "node:http";
import WebSocket from "ws";

export interface PreviewAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Whether it went on a connection an earlier request of the same agent had kept alive. */
  reusedConnection: boolean;
}

/**
 * A request to a URL of the service under any Host (a preview origin's name resolves nowhere on
 * the test machine: the connection goes to the service's own address, the Host says which origin).
 */
export function request(
  url: string,
  options: { headers?: Record<string, string>; method?: string; body?: Buffer; agent?: http.Agent } = {},
): Promise<PreviewAnswer> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: options.method ?? "GET",
        headers: { host: target.host, ...options.headers },
        agent: options.agent ?? false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
            reusedConnection: req.reusedSocket,
          }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

/** Follows a URL of `preview.open` as a browser does: the token becomes the origin's cookie (`name=value`). */
export async function enterPreview(url: string): Promise<{ cookie: string; answer: PreviewAnswer }> {
  const answer = await request(url);
  const setCookie = answer.headers["set-cookie"]?.[0] ?? "";
  return { cookie: setCookie.split(";")[0] ?? "", answer };
}

/** A WebSocket to a preview origin (its root URL), from a page of that origin. */
export function previewSocket(root: string, cookie: string): WebSocket {
  const origin = new URL(root);
  return new WebSocket(`ws://127.0.0.1:${origin.port}/hmr`, {
    headers: { host: origin.host, origin: origin.origin, cookie },
  });
}

/** Resolves once the socket opened; rejects with the refusal's status otherwise. */
export function opened(ws: WebSocket): Promise<void> {
  return new Promise((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("unexpected-response", (_req, res) => reject(new Error(`refused with ${res.statusCode}`)));
    ws.once("error", reject);
  });
}

/** The next text message of the socket. */
export function nextMessage(ws: WebSocket): Promise<string> {
  return new Promise((resolve) => ws.once("message", (data: Buffer) => resolve(data.toString())));
}

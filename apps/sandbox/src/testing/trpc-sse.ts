/**
 * A tRPC subscription over the wire, the way a browser receives it: server-sent events read with
 * fetch and parsed here (Node 20 has no EventSource). Yields each data event until the stream
 * returns; a `serialized-error` event is thrown. Aborting `signal` ends it quietly.
 */
export async function* subscriptionEvents<T>(
  url: string,
  cookie: string,
  path: string,
  input: unknown,
  signal: AbortSignal,
): AsyncGenerator<T> {
  const query = encodeURIComponent(JSON.stringify(input));
  const res = await fetch(`${url}/api/trpc/${path}?input=${query}`, {
    headers: { cookie, accept: "text/event-stream" },
    signal,
  });
  if (!res.ok || !res.body) throw new Error(`${path} answered HTTP ${res.status}: ${await res.text()}`);
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    const reader = res.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let end = buffer.indexOf("\n\n");
      while (end !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        end = buffer.indexOf("\n\n");
        const fields = new Map<string, string>();
        for (const line of block.split("\n")) {
          const colon = line.indexOf(":");
          if (colon > 0) fields.set(line.slice(0, colon), line.slice(colon + 1).trimStart());
        }
        const event = fields.get("event");
        const data = fields.get("data");
        if (event === "serialized-error") throw new Error(`${path} failed: ${data}`);
        if (event === "return") return;
        if (event === undefined && data) yield JSON.parse(data) as T;
      }
    }
  } catch (error) {
    if (!signal.aborted) throw error;
  }
}

import type { StoredSessionEvent } from "@coder/protocol";

/**
 * `session.events` over the wire, the way a browser receives it: tRPC's server-sent events,
 * read with fetch and parsed here (Node 20 has no EventSource).
 */
export async function* sessionEventStream(
  url: string,
  cookie: string,
  sessionId: string,
  signal: AbortSignal,
  lastEventId?: string,
): AsyncGenerator<StoredSessionEvent> {
  const input = encodeURIComponent(JSON.stringify({ sessionId, ...(lastEventId ? { lastEventId } : {}) }));
  const res = await fetch(`${url}/api/trpc/session.events?input=${input}`, {
    headers: { cookie, accept: "text/event-stream" },
    signal,
  });
  if (!res.ok || !res.body)
    throw new Error(`session.events answered HTTP ${res.status}: ${await res.text()}`);
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
        if (event === "serialized-error") throw new Error(`session.events failed: ${data}`);
        if (event === undefined && data) yield JSON.parse(data) as StoredSessionEvent;
      }
    }
  } catch (error) {
    if (!signal.aborted) throw error;
  }
}

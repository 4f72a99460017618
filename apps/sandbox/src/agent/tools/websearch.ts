import { ToolError } from "@coder/tools";
import type { AgentConfig } from "../config/agent-config";

export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
}

/** Searches the web through the configured search API (Brave's web search by default). */
export async function webSearch(
  settings: AgentConfig["websearch"],
  query: string,
  count: number,
  signal: AbortSignal,
): Promise<SearchResult[]> {
  if (!settings.apiKey) throw new ToolError("unavailable", "no search API key is configured");
  const url = new URL(settings.endpoint);
  url.searchParams.set("q", query);
  url.searchParams.set("count", String(count));
  let res: Response;
  try {
    res = await fetch(url, {
      headers: { accept: "application/json", "x-subscription-token": settings.apiKey },
      signal: AbortSignal.any([signal, AbortSignal.timeout(20_000)]),
    });
  } catch (error) {
    if (signal.aborted) throw new ToolError("aborted", "the search was cancelled");
    throw new ToolError("io_error", `the search API could not be reached: ${(error as Error).message}`);
  }
  if (!res.ok) throw new ToolError("io_error", `the search API answered HTTP ${res.status}`);
  const body = (await res.json()) as {
    web?: { results?: { title?: string; url?: string; description?: string }[] };
  };
  return (body.web?.results ?? []).slice(0, count).map((r) => ({
    title: r.title ?? "",
    url: r.url ?? "",
    snippet: (r.description ?? "").replace(/<[^>]+>/g, ""),
  }));
}

import { MAX_SEARCH_MATCHES, type SearchEvent, type TextQuery, textQuery } from "@coder/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execIn, startTestService, type TestService, waitForStatus } from "../testing/harness";
import { subscriptionEvents } from "../testing/trpc-sse";

/** Find in files as the browser runs it: every event of one search, in order. */
async function search(t: TestService, workspaceId: string, query: Partial<TextQuery> & { pattern: string }) {
  const events: SearchEvent[] = [];
  const abort = new AbortController();
  const input = { workspaceId, query: textQuery.parse(query) };
  for await (const event of subscriptionEvents<SearchEvent>(
    t.url,
    t.cookie,
    "files.search",
    input,
    abort.signal,
  )) {
    events.push(event);
  }
  const done = events.at(-1);
  if (done?.type !== "done")
    throw new Error(`the search did not end with a summary: ${JSON.stringify(done)}`);
  const files = events.flatMap((e) => (e.type === "matches" ? e.files : []));
  return { events, done, files };
}

describe("quick open, find in files and replace in a real workspace", () => {
  let t: TestService;
  let ws: string;
  const sh = (script: string) => execIn(t.instance, ws, ["sh", "-c", script]);

  beforeAll(async () => {
    t = await startTestService();
    ws = (await t.api.workspace.create.mutate({ name: "search" })).id;
    await waitForStatus(t.api, ws, "running");
    const write = (path: string, content: string) =>
      t.api.files.write.mutate({ workspaceId: ws, path, content });
    await write(".gitignore", "build/\n");
    await write("src/deep/er/still/target-module.ts", "export const needle = 1;\n");
    await write("src/a.ts", "one\nthe needle here\nneedles and a Needle\n");
    await write("docs/b.md", "# needle\n");
    await write("build/out.js", "needle in an ignored folder\n");
    await write("notes.txt", "nothing to see\n");
  });
  afterAll(async () => {
    await t?.close();
  });

  it("lists every file for quick open, deep ones too, and leaves out what .gitignore ignores", async () => {
    const list = await t.api.files.list.query({ workspaceId: ws });
    expect(list.truncated).toBe(false);
    expect(list.files).toEqual([
      ".gitignore",
      "docs/b.md",
      "notes.txt",
      "src/a.ts",
      "src/deep/er/still/target-module.ts",
    ]);
  });

  it("finds a string in files grouped by file, with each match's line, column and marked text", async () => {
    const { files, done } = await search(t, ws, { pattern: "needle" });
    expect(done).toMatchObject({ matchCount: 4, fileCount: 3, truncated: false });
    const byPath = Object.fromEntries(files.map((f) => [f.path, f.matches]));
    expect(Object.keys(byPath).sort()).toEqual([
      "docs/b.md",
      "src/a.ts",
      "src/deep/er/still/target-module.ts",
    ]);
    expect(byPath["src/a.ts"]?.map((m) => [m.line, m.column])).toEqual([
      [2, 5],
      [3, 1],
    ]);
    const third = byPath["src/a.ts"]?.[1];
    expect(third?.ranges.map((r) => third.text.slice(r.start, r.end))).toEqual(["needle", "Needle"]);
  });

  it("honours case, whole word, regular expressions and include and exclude globs", async () => {
    const count = async (query: Partial<TextQuery> & { pattern: string }) =>
      (await search(t, ws, query)).done.matchCount;
    expect(await count({ pattern: "Needle", caseSensitive: true })).toBe(1);
    expect(await count({ pattern: "needle", wholeWord: true })).toBe(4);
    expect(await count({ pattern: "needles", wholeWord: true })).toBe(1);
    expect(await count({ pattern: "need.e", regex: false })).toBe(0);
    expect(await count({ pattern: "need.e", regex: true })).toBe(4);
    expect(await count({ pattern: "needle", include: "*.md" })).toBe(1);
    expect(await count({ pattern: "needle", include: "src" })).toBe(3);
    expect(await count({ pattern: "needle", exclude: "src, *.md" })).toBe(0);
  });

  it("answers a pattern that is not a regular expression with the reason, not a failure", async () => {
    const { done } = await search(t, ws, { pattern: "(unclosed", regex: true });
    expect(done.error).toMatch(/not a valid regular expression/);
  });

  it("stops at the cap and says the results were truncated", async () => {
    await sh(`mkdir -p many && seq 1 ${MAX_SEARCH_MATCHES + 500} | sed 's/^/hit /' > many/hits.txt`);
    const { done, files } = await search(t, ws, { pattern: "hit" });
    expect(done).toMatchObject({ matchCount: MAX_SEARCH_MATCHES, truncated: true });
    expect(files.reduce((n, f) => n + f.matches.length, 0)).toBe(MAX_SEARCH_MATCHES);
    await sh("rm -r many");
  });

  it("cuts a very long matching line to a window around the match", async () => {
    await sh(
      `mkdir -p min && { head -c 200000 /dev/zero | tr '\\0' a; printf 'FINDME'; head -c 200000 /dev/zero | tr '\\0' b; } > min/bundle.js`,
    );
    const { files } = await search(t, ws, { pattern: "FINDME", caseSensitive: true });
    const match = files[0]?.matches[0];
    expect(match?.column).toBe(200_001);
    expect(match?.text.length).toBeLessThanOrEqual(402);
    expect(match?.text.slice(match.ranges[0]?.start, match.ranges[0]?.end)).toBe("FINDME");
    await sh("rm -r min");
  });

  it("replaces exactly the matches in the chosen files, and the previous text undoes it", async () => {
    const query = textQuery.parse({ pattern: "needle", wholeWord: true });
    const result = await t.api.files.replace.mutate({
      workspaceId: ws,
      query,
      replacement: "pin",
      paths: ["src/a.ts", "docs/b.md"],
    });
    expect(result.files.map((f) => [f.path, f.status, f.status === "changed" ? f.count : 0])).toEqual([
      ["src/a.ts", "changed", 2],
      ["docs/b.md", "changed", 1],
    ]);
    const read = async (path: string) => (await t.api.files.read.query({ workspaceId: ws, path })).content;
    expect(await read("src/a.ts")).toBe("one\nthe pin here\nneedles and a pin\n");
    expect(await read("docs/b.md")).toBe("# pin\n");
    expect(await read("src/deep/er/still/target-module.ts")).toBe("export const needle = 1;\n");

    for (const file of result.files) {
      if (file.status !== "changed") continue;
      await t.api.files.write.mutate({
        workspaceId: ws,
        path: file.path,
        content: file.previous,
        expectedVersion: file.version,
      });
    }
    expect(await read("src/a.ts")).toBe("one\nthe needle here\nneedles and a Needle\n");
    expect(await read("docs/b.md")).toBe("# needle\n");
  });

  it("replaces with regex groups, keeps a file without a final newline as it was, and skips what no longer matches", async () => {
    await t.api.files.write.mutate({ workspaceId: ws, path: "kv.txt", content: "a=1\nb=2" });
    const result = await t.api.files.replace.mutate({
      workspaceId: ws,
      query: textQuery.parse({ pattern: "(\\w)=(\\d)", regex: true }),
      replacement: "$2:$1",
      paths: ["kv.txt", "notes.txt"],
    });
    expect(result.files.map((f) => f.status)).toEqual(["changed", "skipped"]);
    expect((await t.api.files.read.query({ workspaceId: ws, path: "kv.txt" })).content).toBe("1:a\n2:b");
  });

  it("shows an image with its type and refuses a text file that only has an image's name", async () => {
    await sh(String.raw`printf '\211PNG\r\n\032\n\0\0\0\rIHDR' > pic.png && printf 'plain text' > fake.png`);
    await t.api.files.write.mutate({
      workspaceId: ws,
      path: "icon.svg",
      content: '<svg xmlns="http://www.w3.org/2000/svg"/>',
    });
    const image = (path: string) => t.api.files.image.query({ workspaceId: ws, path });
    expect(await image("pic.png")).toMatchObject({ kind: "image", mime: "image/png", size: 16 });
    expect(await image("icon.svg")).toMatchObject({ kind: "image", mime: "image/svg+xml" });
    expect(await image("fake.png")).toMatchObject({ kind: "not_an_image" });
  });
});

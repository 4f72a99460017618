import type { Extension } from "@codemirror/state";
import {
  hashKey,
  type QueryClient,
  type QueryKey,
  QueryObserver,
  type QueryObserverOptions,
} from "@tanstack/react-query";
import { isWithin, movedPath } from "../../../lib/paths/workspace-path";
import type { EditorHost } from "../lsp/editor-host";
import { gitGutter, setIndexText } from "./gutter-extension";

/** What `git.indexText` answers: null outside a repository. */
interface IndexTextAnswer {
  text: string | null;
}

export interface IndexTextsDeps {
  queryClient: QueryClient;
  /** The `git.indexText` query of one file (its key and fetch: tRPC's `queryOptions`). */
  queryOf(path: string): object;
  /** The workspace's `git.status` query: a new answer may mean the index moved. */
  statusKey: QueryKey;
  /** Every `git.indexText` query, to ask again. */
  indexTextKey: QueryKey;
}

/**
 * Git's index version of each open file, which the file's gutter compares the live text with. It
 * is asked for once per opened file (a query per file), and again when the index may have moved:
 * the Source Control panel invalidates every git query after a stage, unstage, commit, checkout
 * or pull, and a new `git.status` answer (after the panel heard `git.events`: a terminal's or the
 * agent's commit) asks all of them again. The file change feed cannot tell: it leaves `.git` out.
 */
export class GitIndexTexts {
  private host: EditorHost | null = null;
  private readonly files = new Map<string, { text: string | null; stop: () => void }>();
  private stopFollowingStatus: (() => void) | null = null;

  constructor(private readonly deps: IndexTextsDeps) {}

  bind(host: EditorHost): void {
    this.host = host;
  }

  /** The gutter of a newly made state of `path`; its index text is asked for if not yet known. */
  extension(path: string): Extension {
    this.follow(path);
    return gitGutter(() => this.files.get(path)?.text ?? null);
  }

  /** The file's tab closed. */
  closed(path: string): void {
    this.files.get(path)?.stop();
    this.files.delete(path);
  }

  /** A rename: its files are git's under their new names. */
  moved(from: string, to: string): void {
    for (const path of [...this.files.keys()]) {
      if (!isWithin(path, from)) continue;
      this.closed(path);
      this.follow(movedPath(path, from, to));
    }
  }

  /** The page goes: nothing is followed any more (a later file starts again). */
  dispose(): void {
    for (const path of [...this.files.keys()]) this.closed(path);
    this.stopFollowingStatus?.();
    this.stopFollowingStatus = null;
  }

  private follow(path: string): void {
    if (this.files.has(path)) return;
    this.followStatus();
    const observer = new QueryObserver<IndexTextAnswer>(this.deps.queryClient, {
      ...(this.deps.queryOf(path) as QueryObserverOptions<IndexTextAnswer>),
      // An untracked or binary file is answered with a refusal that asking again will not change.
      retry: false,
      staleTime: Number.POSITIVE_INFINITY,
      refetchOnWindowFocus: false,
    });
    const file = { text: null as string | null, stop: () => {} };
    this.files.set(path, file);
    file.stop = observer.subscribe((result) => {
      if (result.fetchStatus === "fetching") return;
      const text = result.status === "success" ? result.data.text : null;
      if (text === file.text) return;
      file.text = text;
      this.host?.transact(path, { effects: setIndexText.of(text) });
    });
  }

  private followStatus(): void {
    if (this.stopFollowingStatus) return;
    const { queryClient, statusKey, indexTextKey } = this.deps;
    const statusHash = hashKey(statusKey);
    let last: unknown;
    this.stopFollowingStatus = queryClient.getQueryCache().subscribe((event) => {
      if (event.type !== "updated" || event.query.queryHash !== statusHash) return;
      const data = event.query.state.data;
      if (data === undefined || data === last) return;
      const first = last === undefined;
      last = data;
      if (!first) void queryClient.invalidateQueries({ queryKey: indexTextKey });
    });
  }
}

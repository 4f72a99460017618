import { randomUUID } from "node:crypto";
import {
  gitBranchesInput,
  gitBranchFromTurnInput,
  gitCheckoutInput,
  gitCommitInput,
  gitCommitTurnInput,
  gitConflictInput,
  gitDiffInput,
  gitDiscardInput,
  gitEventsInput,
  gitIndexTextInput,
  gitLogInput,
  gitProposeTurnMessageInput,
  gitRemoteInput,
  gitStageInput,
  gitStatusInput,
} from "@coder/protocol";
import { tracked } from "@trpc/server";
import { commitAuthor } from "../../git/commit-author";
import { conflictView } from "../../git/conflict-view";
import { indexTextAnswer } from "../../git/index-text-answer";
import { commitTurn, proposeTurnCommitMessage, type TurnCommitRequest } from "../../git/turn-commit";
import { router, runningWorkspaceProcedure, workspaceProcedure } from "../init";
import { recordAct } from "../record-act";

/** A fetch, pull or push: answered when git has finished; its progress lines go to `git.events`. */
function remoteCall(method: "git.fetch" | "git.pull" | "git.push") {
  return runningWorkspaceProcedure("editor")
    .input(gitRemoteInput)
    .mutation(async ({ ctx, input, signal }) => {
      const { remote, branch, setUpstream } = input;
      const callId = input.progressId ?? randomUUID();
      // git's credential helper may ask for the acting person's token during this call alone.
      const result = await ctx.credentialCalls.during(ctx.workspaceId, ctx.principal, (credentialRequestId) =>
        ctx.daemon.request(
          method,
          { remote, branch, setUpstream, callId, ...(credentialRequestId ? { credentialRequestId } : {}) },
          signal,
        ),
      );
      if (method === "git.push") {
        recordAct(ctx, {
          action: "git.pushed",
          workspaceId: ctx.workspaceId,
          target: remote ?? null,
          detail: { remote: remote ?? null, branch: branch ?? null, setUpstream },
        });
      }
      return result;
    });
}

/** Commits an agent turn's files (on a new branch with `branch`); git/turn-commit.ts. */
function turnCommitCall(input: typeof gitCommitTurnInput | typeof gitBranchFromTurnInput) {
  return runningWorkspaceProcedure("editor")
    .input(input)
    .mutation(async ({ ctx, input }) => {
      const request: TurnCommitRequest = input;
      const result = await commitTurn(
        {
          agent: ctx.agent,
          daemon: ctx.daemon,
          emailOf: (id) => ctx.profiles.email(id),
          log: ctx.log,
        },
        request,
      );
      recordAct(ctx, {
        action: "git.committed",
        workspaceId: ctx.workspaceId,
        target: result.hash,
        detail: {
          summary: result.summary,
          turnId: input.turnId,
          sessionId: input.sessionId,
          branch: result.branch,
        },
      });
      return result;
    });
}

/**
 * The workspace's own repository (git through its daemon, packages/daemon/src/git). Viewers read;
 * editors and owners change. Failures carry git's own message.
 */
export const gitRouter = router({
  status: runningWorkspaceProcedure("viewer")
    .input(gitStatusInput)
    .query(({ ctx }) => ctx.daemon.request("git.status", {})),
  diff: runningWorkspaceProcedure("viewer")
    .input(gitDiffInput)
    .query(({ ctx, input }) => ctx.daemon.request("git.diff", { path: input.path, staged: input.staged })),
  /** The file's version in the index, which the editor's change markers compare the live text with. */
  indexText: runningWorkspaceProcedure("viewer")
    .input(gitIndexTextInput)
    .query(async ({ ctx, input }) =>
      indexTextAnswer(await ctx.daemon.request("git.indexText", { path: input.path })),
    ),
  branches: runningWorkspaceProcedure("viewer")
    .input(gitBranchesInput)
    .query(({ ctx }) => ctx.daemon.request("git.branches", {})),
  log: runningWorkspaceProcedure("viewer")
    .input(gitLogInput)
    .query(async ({ ctx, input }) => (await ctx.daemon.request("git.log", { limit: input.limit })).commits),
  /** Whole files, or single hunks: `patch` (a unified diff of `paths` only) goes through `git apply --cached`. */
  stage: runningWorkspaceProcedure("editor")
    .input(gitStageInput)
    .mutation(({ ctx, input }) =>
      ctx.daemon.request("git.stage", { paths: input.paths, patch: input.patch }),
    ),
  unstage: runningWorkspaceProcedure("editor")
    .input(gitStageInput)
    .mutation(({ ctx, input }) =>
      ctx.daemon.request("git.unstage", { paths: input.paths, patch: input.patch }),
    ),
  /** Throws away the changes of `paths` (the UI asks first); an untracked file is removed. */
  discard: runningWorkspaceProcedure("editor")
    .input(gitDiscardInput)
    .mutation(({ ctx, input }) => ctx.daemon.request("git.discard", { paths: input.paths })),
  /** Commits the index as the acting person; the repository's hooks never run. */
  commit: runningWorkspaceProcedure("editor")
    .input(gitCommitInput)
    .mutation(async ({ ctx, input }) => {
      const author = await commitAuthor(ctx.principal, ctx.workspaceId, (id) => ctx.profiles.email(id));
      const result = await ctx.daemon.request("git.commit", {
        message: input.message,
        amend: input.amend,
        author,
      });
      recordAct(ctx, {
        action: "git.committed",
        workspaceId: ctx.workspaceId,
        target: result.hash,
        detail: { summary: result.summary, amend: input.amend },
      });
      return result;
    }),
  /**
   * One commit of exactly the files an agent turn changed, by the person who prompted it, with a
   * `Co-authored-by: coder agent` trailer; the message is the given one or the model's proposal.
   */
  commitTurn: turnCommitCall(gitCommitTurnInput),
  /**
   * The message the model proposes for a commit of the turn, for the person to edit before
   * committing; commits nothing. Within 20 s and 60 tokens, else the turn's plain message.
   */
  proposeTurnMessage: runningWorkspaceProcedure("editor")
    .input(gitProposeTurnMessageInput)
    .query(({ ctx, input }) => proposeTurnCommitMessage({ agent: ctx.agent, log: ctx.log }, input)),
  /** The same on a new branch made at HEAD and checked out (the name checked by git in the container). */
  branchFromTurn: turnCommitCall(gitBranchFromTurnInput),
  /** A conflicted file: base, ours and theirs from the index, and the result in the work tree. */
  conflict: runningWorkspaceProcedure("viewer")
    .input(gitConflictInput)
    .query(({ ctx, input }) => conflictView(ctx.daemon, input.path)),
  checkout: runningWorkspaceProcedure("editor")
    .input(gitCheckoutInput)
    .mutation(async ({ ctx, input }) => {
      const result = await ctx.daemon.request("git.checkout", { branch: input.branch, create: input.create });
      recordAct(ctx, {
        action: "git.checked_out",
        workspaceId: ctx.workspaceId,
        target: input.branch,
        detail: { create: input.create },
      });
      return result;
    }),
  fetch: remoteCall("git.fetch"),
  pull: remoteCall("git.pull"),
  push: remoteCall("git.push"),
  /**
   * What every panel on the workspace follows: `changed` when HEAD, the index or a ref moved (by
   * anyone: the panel, a terminal, the agent), and the progress lines of running fetches, pulls
   * and pushes (a caller recognises its own by the `progressId` it chose). `resync`: refetch.
   */
  events: workspaceProcedure("viewer")
    .input(gitEventsInput)
    .subscription(async function* ({ ctx, input, signal }) {
      await ctx.workspaces.get(input.workspaceId);
      // The daemon's watcher reports only once its daemon runs.
      ctx.daemons
        .connection(input.workspaceId)
        .ensure()
        .catch(() => undefined);
      for await (const e of ctx.daemons.gitFeed(input.workspaceId).subscribe(input.lastEventId, signal)) {
        if (e.kind === "resync") yield tracked("resync", { type: "resync" as const });
        else yield tracked(e.item.id, e.item.data);
      }
    }),
});

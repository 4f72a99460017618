import {
  answerInput,
  createSessionInput,
  listSessionsInput,
  promptInput,
  respondInput,
  sessionEventsInput,
  sessionRef,
  turnRef,
  updateSessionInput,
} from "@coder/protocol";
import { tracked } from "@trpc/server";
import { actorOf } from "../../audit/audit-entry";
import { authorOf } from "../../auth/author";
import { router, sessionProcedure, signedInProcedure, withMappedErrors, workspaceProcedure } from "../init";
import { recordAct } from "../record-act";

/** Agent sessions: conversations, prompts, approvals and questions, and their live events. */
export const sessionRouter = router({
  list: workspaceProcedure("viewer")
    .input(listSessionsInput)
    .query(({ ctx, input }) => ctx.agent.list(input.workspaceId)),
  /** The workspace's conversations, sent again whenever one is made, renamed or deleted or a turn starts or ends. */
  watchList: workspaceProcedure("viewer")
    .input(listSessionsInput)
    .subscription(({ ctx, input, signal }) =>
      withMappedErrors(ctx.agent.watchList(input.workspaceId, signal ?? new AbortController().signal)),
    ),
  create: workspaceProcedure("editor")
    .input(createSessionInput)
    .mutation(({ ctx, input }) => ctx.agent.create(input)),
  /** The session with its messages and parts, todos, running turn, waiting requests and last event id. */
  get: sessionProcedure("viewer")
    .input(sessionRef)
    .query(({ ctx, input }) => ctx.agent.get(input.sessionId)),
  update: sessionProcedure("editor")
    .input(updateSessionInput)
    .mutation(({ ctx, input }) => ctx.agent.update(input)),
  delete: sessionProcedure("owner")
    .input(sessionRef)
    .mutation(async ({ ctx, input }) => {
      await ctx.agent.delete(input.sessionId);
      return { ok: true as const };
    }),
  /** Commits the prompt (by the caller) and starts the turn; returns at once (follow `events` for the answer). */
  prompt: sessionProcedure("editor")
    .input(promptInput)
    .mutation(async ({ ctx, input }) => {
      const turn = await ctx.agent.prompt(input, authorOf(ctx.principal), actorOf(ctx.principal));
      recordAct(ctx, {
        action: "agent.turn",
        workspaceId: ctx.workspaceId,
        target: input.sessionId,
        detail: turn,
      });
      return turn;
    }),
  abort: sessionProcedure("editor")
    .input(sessionRef)
    .mutation(({ ctx, input }) => ctx.agent.abort(input.sessionId)),
  /**
   * Replies to an approval: once, always (for this session), or reject (with a message for the
   * agent). The first reply wins; a later one gets CONFLICT naming who answered.
   */
  respond: sessionProcedure("editor")
    .input(respondInput)
    .mutation(async ({ ctx, input }) => {
      await ctx.agent.respond(input, authorOf(ctx.principal));
      const detail = { sessionId: input.sessionId, requestId: input.requestId, reply: input.reply };
      recordAct(ctx, {
        action: "agent.approval",
        workspaceId: ctx.workspaceId,
        target: input.requestId,
        detail,
      });
      return { ok: true as const };
    }),
  answer: sessionProcedure("editor")
    .input(answerInput)
    .mutation(async ({ ctx, input }) => {
      await ctx.agent.answer(input, authorOf(ctx.principal));
      return { ok: true as const };
    }),
  /** What a turn changed: the files (added/modified/deleted, line counts) and a unified diff. */
  turnDiff: sessionProcedure("viewer")
    .input(turnRef)
    .query(({ ctx, input }) => ctx.agent.turnDiff(input)),
  /** Puts the files the turn changed back as they were before it; other files stay as they are. */
  revertTurn: sessionProcedure("editor")
    .input(turnRef)
    .mutation(({ ctx, input }) => ctx.agent.revertTurn(input)),
  /** Brings the changes of a reverted turn back. */
  undoRevert: sessionProcedure("editor")
    .input(turnRef)
    .mutation(({ ctx, input }) => ctx.agent.undoRevert(input)),
  /** Every event of the session after `lastEventId` (from the database), then live; ids are tracked. */
  events: sessionProcedure("viewer")
    .input(sessionEventsInput)
    .subscription(async function* ({ ctx, input, signal }) {
      const stop = signal ?? new AbortController().signal;
      for await (const event of ctx.agent.follow(input.sessionId, input.lastEventId, stop)) {
        yield tracked(String(event.id), event);
      }
    }),
});

export const modelsRouter = router({
  /** The configured models; empty with a `setupHint` when none is. */
  list: signedInProcedure.query(({ ctx }) => ctx.agent.listModels()),
});

import type { QuestionRequest, ToolPart } from "@coder/protocol";
import { type AgentServices, ToolError } from "@coder/tools";
import { SUBAGENTS } from "../agents";
import { newId } from "../ids";
import { type QuestionAnswer, RequestCancelled } from "../interaction/pending-requests";
import type { TurnState } from "../loop/turn-state";
import { fetchPage } from "../web/fetch-page";
import type { Outcome } from "./outcome";
import { webSearch } from "./websearch";

/** Default and longest wait for a web page, in seconds. */
const FETCH_TIMEOUT_S = 30;
const MAX_FETCH_TIMEOUT_S = 120;

/**
 * The runtime's side of the tools that need it: sub-agents, the person, the web, batches, the
 * browser beside the workspace.
 * `runCall` runs one more call of the model's (a batch's parts) the way the dispatcher runs any.
 */
export function agentServices(
  turn: TurnState,
  part: ToolPart,
  runCall: (call: ToolPart) => Promise<Outcome>,
): AgentServices {
  return {
    async task(args, ctx) {
      const agent = SUBAGENTS.find((a) => a === args.agent);
      if (!agent) {
        throw new ToolError(
          "invalid_args",
          `there is no sub-agent named "${args.agent}"`,
          `use one of: ${SUBAGENTS.join(", ")}`,
        );
      }
      const summary = await turn.runSubagent(agent, args.objective, (sessionId) =>
        ctx.metadata({ sessionId }),
      );
      return { summary };
    },

    async question(args, ctx) {
      const request: QuestionRequest = {
        id: newId("req"),
        sessionId: turn.session.id,
        callId: part.callId,
        questions: args.questions,
      };
      part.state = "waiting";
      await turn.message.update(part, true);
      await turn.root.recorder.emit({ type: "question.asked", request });
      let answer: QuestionAnswer;
      try {
        answer = await turn.deps.pending.question(turn.root.sessionId, request, ctx.abort);
      } catch (error) {
        if (error instanceof RequestCancelled) throw new ToolError("aborted", "the question was withdrawn");
        throw error;
      }
      const { answers, by } = answer;
      await turn.root.recorder.emit({
        type: "question.replied",
        requestId: request.id,
        answers,
        ...(by ? { by } : {}),
      });
      part.state = "running";
      if (by) part.answeredBy = by;
      void turn.message.update(part);
      if (answers === null) {
        throw new ToolError(
          "rejected",
          "the person chose not to answer",
          "go on with your best judgement, or explain what you need",
        );
      }
      return { answers };
    },

    // The person already approved leaving plan mode (plan_exit asks by default).
    async planExit() {
      await turn.switchAgent("build");
      return { approved: true };
    },

    async webfetch(args, ctx) {
      const seconds = Math.min(args.timeout ?? FETCH_TIMEOUT_S, MAX_FETCH_TIMEOUT_S);
      return fetchPage(args.url, {
        format: args.format,
        timeoutMs: seconds * 1000,
        signal: ctx.abort,
        ...turn.deps.web,
      });
    },

    async websearch(args, ctx) {
      return {
        results: await webSearch(turn.deps.config.websearch, args.query, args.num_results ?? 8, ctx.abort),
      };
    },

    async preview(args, ctx) {
      if (!turn.deps.browser) {
        throw new ToolError("unavailable", "this service has no browser to load pages with");
      }
      return turn.deps.browser.load(turn.session.workspaceId, args, ctx.abort);
    },

    async batch(args) {
      const results = await Promise.all(
        args.tool_calls.map(async (call, i) => {
          const sub = turn.message.add({
            type: "tool",
            callId: `${part.callId}:${i}`,
            tool: call.tool,
            input: call.parameters,
            state: "pending",
            parentCallId: part.callId,
          });
          const outcome = await runCall(sub);
          sub.state = outcome.result.ok ? "completed" : "error";
          sub.result = outcome.result;
          sub.output = outcome.output;
          await turn.message.update(sub, true);
          return { tool: call.tool, ok: outcome.result.ok, output: outcome.output };
        }),
      );
      return { results };
    },
  };
}

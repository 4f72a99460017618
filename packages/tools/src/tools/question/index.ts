import { z } from "zod";
import { formatError } from "../../framework/format";
import { requireService } from "../../framework/services";
import { defineTool } from "../../framework/types";
import description from "./question.txt";

const parameters = z.object({
  questions: z
    .array(
      z.object({
        question: z.string().min(1).describe("The question, complete and specific"),
        options: z.array(z.string().min(1)).describe("Answers to choose from"),
        multiple: z.boolean().optional().describe("Whether several options may be chosen"),
      }),
    )
    .min(1, "ask at least one question"),
});

export const questionTool = defineTool({
  id: "question",
  description,
  parameters,
  facts: { runsIn: "service", reads: "none", changes: "none" },
  async execute(args, ctx) {
    const ask = requireService(ctx, "question", "question");
    const { answers } = await ask(args, ctx);
    return { ok: true, answers };
  },
  format(result, args) {
    if (result.error) return formatError(result);
    const answers = result.answers as string[][];
    return args.questions
      .map((q, i) => `${q.question}\n-> ${(answers[i] ?? []).join(", ") || "(no answer)"}`)
      .join("\n\n");
  },
});

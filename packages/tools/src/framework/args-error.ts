import type { z } from "zod";

/**
 * One readable line per problem, naming the field and what was expected, e.g.
 * `path: required (expected string)` or `todos.1.status: expected one of "pending"|...`.
 */
export function describeArgsError(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const field = issue.path.length > 0 ? issue.path.map(String).join(".") : "arguments";
      return `${field}: ${issueText(issue)}`;
    })
    .join("; ");
}

function issueText(issue: z.core.$ZodIssue): string {
  // Issues do not carry the input unless asked to; zod's message says when it was missing.
  if (issue.code === "invalid_type" && issue.message.endsWith("received undefined")) {
    return `required (expected ${issue.expected})`;
  }
  // zod prefixes its messages with "Invalid input: "; the field name already says where.
  return issue.message.replace(/^Invalid (input|option): /, "");
}

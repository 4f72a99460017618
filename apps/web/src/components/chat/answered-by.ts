import type { Author, ToolPart } from "@coder/protocol";

const who = (author: Author) => (author.kind === "guest" ? `${author.name} (guest)` : author.name);

/**
 * Who let a call run or stopped it ("Approved by Ada (guest)", "Rejected by Owner"), or answered
 * the question it asked; null when no person was asked. Several people may share a session, so the
 * chat says whose answer counted, and that a guest (who chose their own name) is a guest.
 */
export function answeredBy(part: Pick<ToolPart, "approval" | "answeredBy" | "result">): string | null {
  if (part.approval) {
    const { reply, by } = part.approval;
    const what = { once: "Approved", always: "Approved for this session", reject: "Rejected" }[reply];
    return by ? `${what} by ${who(by)}` : what;
  }
  if (part.answeredBy) {
    const declined = part.result?.ok === false && part.result.error?.code === "rejected";
    return `${declined ? "Declined" : "Answered"} by ${who(part.answeredBy)}`;
  }
  return null;
}

import type { ToolPart } from "@coder/protocol";

/**
 * Who let a call run or stopped it ("Approved by Ada", "Rejected by Owner"), or answered the
 * question it asked; null when no person was asked. Several people may share a session, so the
 * chat says whose answer counted.
 */
export function answeredBy(part: Pick<ToolPart, "approval" | "answeredBy" | "result">): string | null {
  if (part.approval) {
    const { reply, by } = part.approval;
    const what = { once: "Approved", always: "Approved for this session", reject: "Rejected" }[reply];
    return by ? `${what} by ${by.name}` : what;
  }
  if (part.answeredBy) {
    const declined = part.result?.ok === false && part.result.error?.code === "rejected";
    return `${declined ? "Declined" : "Answered"} by ${part.answeredBy.name}`;
  }
  return null;
}

import type { Message, Part } from "@coder/protocol";
import { describe, expect, it } from "vitest";
import { toModelMessages } from "./history";
import type { PartFields } from "./message-writer";
import { RepeatDetector } from "./repeat-detector";

const message = (role: "user" | "assistant", parts: PartFields[]): Message => ({
  id: `msg_${role}`,
  sessionId: "ses_1",
  role,
  agent: "build",
  model: null,
  createdAt: "",
  parts: parts.map((p, i) => ({ ...p, id: `prt_${i}`, messageId: `msg_${role}` }) as Part),
});

const tool = (
  callId: string,
  state: "completed" | "error" | "running",
  extra: Record<string, unknown> = {},
) => ({
  type: "tool" as const,
  callId,
  tool: "read",
  input: { path: "a" },
  state,
  ...extra,
});

describe("the conversation sent to the model", () => {
  it("has each step's text and calls, then their results", () => {
    const history = [
      message("user", [{ type: "text", text: "fix it" }]),
      message("assistant", [
        { type: "step-start", step: 1 },
        { type: "reasoning", text: "hmm" },
        { type: "text", text: "Reading." },
        tool("c1", "completed", { output: "1\tcontent" }),
        { type: "step-finish", step: 1, finishReason: "tool-calls", usage: {} },
        { type: "step-start", step: 2 },
        tool("c2", "error", { output: "Error (not_found): a does not exist" }),
        { type: "step-start", step: 3 },
        { type: "text", text: "Done." },
      ]),
    ];
    expect(toModelMessages(history)).toEqual([
      { role: "user", content: "fix it" },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Reading." },
          { type: "tool-call", toolCallId: "c1", toolName: "read", input: { path: "a" } },
        ],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "c1",
            toolName: "read",
            output: { type: "text", value: "1\tcontent" },
          },
        ],
      },
      {
        role: "assistant",
        content: [{ type: "tool-call", toolCallId: "c2", toolName: "read", input: { path: "a" } }],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "c2",
            toolName: "read",
            output: { type: "error-text", value: "Error (not_found): a does not exist" },
          },
        ],
      },
      { role: "assistant", content: [{ type: "text", text: "Done." }] },
    ]);
  });

  it("closes calls that never finished, and leaves out the calls a batch made", () => {
    const messages = toModelMessages([
      message("assistant", [
        { type: "step-start", step: 1 },
        tool("c1", "running", { input: "not an object" }),
        tool("c1:0", "completed", { output: "inner", parentCallId: "c1" }),
      ]),
    ]);
    expect(messages).toEqual([
      { role: "assistant", content: [{ type: "tool-call", toolCallId: "c1", toolName: "read", input: {} }] },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "c1",
            toolName: "read",
            output: { type: "error-text", value: "the call did not finish: the agent was interrupted" },
          },
        ],
      },
    ]);
  });
});

describe("repeated calls", () => {
  it("are counted while the same tool gets the same arguments in a row", () => {
    const r = new RepeatDetector();
    expect(r.record("read", { path: "a", limit: 5 })).toBe(1);
    expect(r.record("read", { limit: 5, path: "a" })).toBe(2);
    expect(r.record("read", { path: "a", limit: 5 })).toBe(3);
    expect(r.record("read", { path: "b" })).toBe(1);
    expect(r.record("grep", { path: "b" })).toBe(1);
    r.reset();
    expect(r.record("grep", { path: "b" })).toBe(1);
  });
});

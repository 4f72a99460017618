import { MAX_ATTACHED_LISTED, type TerminalServerMessage, terminalServerMessage } from "@coder/protocol";
import { describe, expect, it } from "vitest";
import { attachedMessage, TerminalAttachments } from "./terminal-attachments";

type Heard = Extract<TerminalServerMessage, { type: "attached" }>;

/** Someone attached to `t1` of `ws`: what they heard last, as the page would parse it. */
function listener() {
  const heard: Heard[] = [];
  return {
    heard,
    last: () => heard.at(-1),
    tell: (message: Heard) => heard.push(terminalServerMessage.parse(message) as Heard),
  };
}

const settled = (condition: () => boolean) => expect.poll(condition, { timeout: 2000 }).toBe(true);

describe("who is attached to a shared terminal", () => {
  it("sizes the terminal for the smallest window of those who type, never a viewer's", () => {
    const message = attachedMessage([
      { name: "Owner", input: true, cols: 180, rows: 50 },
      { name: "Bea", input: true, cols: 70, rows: 60 },
      { name: "Vi", input: false, cols: 20, rows: 5 },
    ]);
    // Width and height each from the smallest: that is how tmux's `window-size smallest` counts.
    expect(message.size).toEqual({ cols: 70, rows: 50 });
    expect(message.people.map((p) => p.name)).toEqual(["Bea", "Owner", "Vi"]);
  });

  it("has no size while only viewers watch", () => {
    expect(attachedMessage([{ name: "Vi", input: false, cols: 20, rows: 5 }]).size).toBeNull();
  });

  it("names at most a bounded number of people and counts the rest", () => {
    const many = Array.from({ length: MAX_ATTACHED_LISTED + 5 }, (_, i) => ({
      name: `p${i}`,
      input: false,
      cols: 80,
      rows: 24,
    }));
    const message = attachedMessage(many);
    expect([message.people.length, message.more]).toEqual([MAX_ATTACHED_LISTED, 5]);
    expect(terminalServerMessage.safeParse(message).success).toBe(true);
  });

  it("tells everyone attached when someone attaches, resizes or leaves, and only on that terminal", async () => {
    const attachments = new TerminalAttachments();
    const owner = listener();
    const bea = listener();
    const elsewhere = listener();
    const ownerHandle = attachments.attach("ws", "t1", {
      name: "Owner",
      input: true,
      cols: 120,
      rows: 40,
      ...owner,
    });
    attachments.attach("ws", "t2", { name: "Other", input: true, cols: 10, rows: 5, ...elsewhere });
    const beaHandle = attachments.attach("ws", "t1", {
      name: "Bea",
      input: true,
      cols: 60,
      rows: 20,
      ...bea,
    });
    await settled(() => owner.last()?.people.length === 2);
    expect(owner.last()?.size).toEqual({ cols: 60, rows: 20 });
    expect(bea.last()).toEqual(owner.last());
    expect(elsewhere.last()?.people.map((p) => p.name)).toEqual(["Other"]);

    beaHandle.resized(50, 30);
    await settled(() => owner.last()?.size?.cols === 50);
    expect(owner.last()?.size).toEqual({ cols: 50, rows: 30 });

    // A resize to the same size says nothing new.
    const count = owner.heard.length;
    ownerHandle.resized(120, 40);
    beaHandle.detach();
    await settled(() => owner.last()?.people.length === 1);
    expect(owner.heard.length).toBe(count + 1);
    expect(owner.last()?.size).toEqual({ cols: 120, rows: 40 });
  });
});

import { TERMINAL_ACK_EVERY_BYTES } from "@coder/protocol";
import { describe, expect, it } from "vitest";
import { AckCounter } from "./ack-counter";

describe("AckCounter", () => {
  it("acks once enough output has been processed, with the exact byte count", () => {
    const counter = new AckCounter(100);
    expect(counter.processed(40)).toBeNull();
    expect(counter.processed(40)).toBeNull();
    expect(counter.processed(30)).toBe(110);
  });

  it("starts counting afresh after each ack", () => {
    const counter = new AckCounter(100);
    expect(counter.processed(150)).toBe(150);
    expect(counter.processed(99)).toBeNull();
    expect(counter.processed(1)).toBe(100);
  });

  it("uses the protocol's threshold by default", () => {
    const counter = new AckCounter();
    expect(counter.processed(TERMINAL_ACK_EVERY_BYTES - 1)).toBeNull();
    expect(counter.processed(1)).toBe(TERMINAL_ACK_EVERY_BYTES);
  });
});

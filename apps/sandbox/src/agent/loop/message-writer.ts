import type { Message, MessageInfo, Part } from "@coder/protocol";
import type { SessionRecorder } from "../events/recorder";
import { newId } from "../ids";

/** A part's own fields, before it has an id and a message (distributes over the part types). */
export type PartFields = Part extends infer P
  ? P extends Part
    ? Omit<P, "id" | "messageId">
    : never
  : never;

/**
 * The assistant message of a turn as it is being written: the parts are kept in memory (the next
 * model request is built from them) and every change is recorded as an event.
 */
export class MessageWriter {
  readonly parts: Part[] = [];

  constructor(
    private readonly recorder: SessionRecorder,
    readonly info: MessageInfo,
  ) {}

  /** Adds a part and records it without waiting for the write. */
  add<P extends PartFields>(fields: P): Extract<Part, { type: P["type"] }> {
    const part = { ...fields, id: newId("prt"), messageId: this.info.id } as unknown as Extract<
      Part,
      { type: P["type"] }
    >;
    this.parts.push(part);
    this.recorder.post({ type: "part.updated", part: structuredClone(part) });
    return part;
  }

  /** Records a changed part; `commit` waits until it is stored (results that must not be lost). */
  async update(part: Part, commit = false): Promise<void> {
    const event = { type: "part.updated" as const, part: structuredClone(part) };
    if (commit) await this.recorder.emit(event);
    else this.recorder.post(event);
  }

  /** Streams text into a text or reasoning part. */
  appendText(part: Extract<Part, { type: "text" | "reasoning" }>, delta: string): void {
    part.text += delta;
    this.recorder.delta(this.info.id, part.id, delta);
  }

  snapshot(): Message {
    return { ...this.info, parts: this.parts };
  }
}

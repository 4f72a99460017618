import { spawn } from "node:child_process";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { readReportedPid, reportingPid } from "./exec-process";

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let text = "";
  for await (const chunk of stream) text += chunk.toString();
  return text;
}

describe("the pid report of an exec'd process", () => {
  it("is the command's own pid, and the command's output follows untouched", async () => {
    const [program, ...args] = reportingPid(["sh", "-c", 'echo "out $$"; echo "err $$" >&2'], false) as [
      string,
      ...string[],
    ];
    const child = spawn(program, args, { stdio: ["ignore", "pipe", "pipe"] });
    const pid = await readReportedPid(child.stderr);
    expect(pid).toBe(child.pid);
    expect(await readAll(child.stdout)).toBe(`out ${pid}\n`);
    expect(await readAll(child.stderr)).toBe(`err ${pid}\n`);
  });

  it("puts back what came in the same chunk after the report (a TTY's CRLF too)", async () => {
    const stream = new PassThrough();
    stream.end("4242\r\nhello");
    expect(await readReportedPid(stream)).toBe(4242);
    expect(await readAll(stream)).toBe("hello");
  });

  it("refuses a stream that ends first, starts with anything else, or reports 0 or 1", async () => {
    const from = (text: string) => {
      const stream = new PassThrough();
      stream.end(text);
      return readReportedPid(stream);
    };
    await expect(from("")).rejects.toThrow(/ended before it started/);
    await expect(from("-1\n")).rejects.toThrow(/did not report its pid/);
    await expect(from("1\n")).rejects.toThrow(/did not report its pid/);
    await expect(from("0\n")).rejects.toThrow(/did not report its pid/);
    await expect(from("x".repeat(100))).rejects.toThrow(/did not report its pid/);
  });
});

import { describe, expect, it } from "vitest";
import { AnswerError, AnswerParser, MAX_ANSWER_HEAD_BYTES } from "./answer-parser";

/** What a parser reported, as text, for answers to `methods` fed in pieces of `piece` bytes. */
function read(wire: string, methods: string[], piece = Number.POSITIVE_INFINITY, close = false) {
  const seen: string[] = [];
  const pending = [...methods];
  const parser = new AnswerParser({
    head: (h) => seen.push(`head ${h.status} ${h.reason} ${h.rawHeaders.join("|")}`),
    body: (b) => {
      if (b.length > 0) seen.push(`body ${b.toString("latin1")}`);
    },
    end: (reusable) => {
      seen.push(`end ${reusable ? "reusable" : "last"}`);
      const next = pending.shift();
      if (next) parser.expect(next);
    },
  });
  parser.expect(pending.shift() ?? "GET");
  const bytes = Buffer.from(wire, "latin1");
  const step = Number.isFinite(piece) ? piece : bytes.length;
  for (let at = 0; at < bytes.length; at += step) parser.push(bytes.subarray(at, at + step));
  if (close) parser.close();
  // Bodies split into pieces are joined back, so any split reads the same.
  return seen.reduce<string[]>((all, line) => {
    const last = all.at(-1);
    if (line.startsWith("body ") && last?.startsWith("body ")) all[all.length - 1] = last + line.slice(5);
    else all.push(line);
    return all;
  }, []);
}

const SIZED = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\nhello";
const CHUNKED =
  "HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\nSet-Cookie: a=1\r\n\r\n3;x=y\r\nabc\r\n0\r\nX-Trailer: t\r\n\r\n";

describe("reading an app's answers off a kept-alive tunnel", () => {
  it("finds where each answer ends, however the bytes are split", () => {
    const expected = [
      "head 200 OK Content-Type|text/plain|Content-Length|5",
      "body hello",
      "end reusable",
      "head 201 Created Transfer-Encoding|chunked|Set-Cookie|a=1",
      "body abc",
      "end reusable",
    ];
    for (const piece of [1, 2, 3, 7, 64]) {
      expect(read(SIZED + CHUNKED, ["GET", "GET"], piece), `pieces of ${piece}`).toEqual(expected);
    }
  });

  it("gives a HEAD answer, a 204 and a 304 no body", () => {
    expect(read("HTTP/1.1 200 OK\r\nContent-Length: 99\r\n\r\n", ["HEAD"], 4)).toEqual([
      "head 200 OK Content-Length|99",
      "end reusable",
    ]);
    expect(read("HTTP/1.1 204 No Content\r\n\r\nHTTP/1.1 304 Not Modified\r\n\r\n", ["GET", "GET"])).toEqual([
      "head 204 No Content ",
      "end reusable",
      "head 304 Not Modified ",
      "end reusable",
    ]);
  });

  it("passes over an interim 100 Continue to the final answer", () => {
    expect(read(`HTTP/1.1 100 Continue\r\n\r\n${SIZED}`, ["POST"], 5)).toEqual([
      "head 200 OK Content-Type|text/plain|Content-Length|5",
      "body hello",
      "end reusable",
    ]);
  });

  it("ends an answer without a length at the close, and never reuses its tunnel", () => {
    expect(read("HTTP/1.1 200 OK\r\n\r\nstreamed until the end", [], 4, true)).toEqual([
      "head 200 OK ",
      "body streamed until the end",
      "end last",
    ]);
    expect(read("HTTP/1.0 200 OK\r\nContent-Length: 1\r\n\r\nx", [])).toEqual([
      "head 200 OK Content-Length|1",
      "body x",
      "end last",
    ]);
    expect(read("HTTP/1.1 200 OK\r\nConnection: Close\r\nContent-Length: 0\r\n\r\n", [])).toEqual([
      "head 200 OK Connection|Close|Content-Length|0",
      "end last",
    ]);
  });

  it("refuses what is not one unambiguous HTTP/1.x answer", () => {
    const refused = [
      "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n",
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n",
      "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\n",
      "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n",
      "HTTP/1.1 200 OK\r\nContent-Length: 1e3\r\n\r\n",
      "HTTP/1.1 200 OK\r\nX-A: b\rSet-Cookie: coder_session=x\r\n\r\n",
      "HTTP/1.1 200 OK\r\nX-A: b\r\n folded\r\n\r\n",
      "HTTP/1.1 200 OK\r\nBad Name: x\r\n\r\n",
      "HTTP/2 200\r\n\r\n",
      "SSH-2.0-OpenSSH\r\n\r\n",
      "HTTP/1.1 101 Switching Protocols\r\n\r\n",
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n",
      `HTTP/1.1 200 OK\r\nX: ${"a".repeat(MAX_ANSWER_HEAD_BYTES)}\r\n\r\n`,
      `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1${" ".repeat(2000)}`,
    ];
    for (const wire of refused) {
      expect(() => read(wire, [], 1000), JSON.stringify(wire.slice(0, 60))).toThrow(AnswerError);
    }
  });

  it("refuses bytes nobody asked for, and an answer cut short by the close", () => {
    expect(() => read(`${SIZED}HTTP/1.1 200 OK\r\n\r\n`, [])).toThrow(/nobody asked for/);
    expect(() => read("HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nhal", [], 4, true)).toThrow(
      expect.objectContaining({ closed: true }),
    );
  });
});

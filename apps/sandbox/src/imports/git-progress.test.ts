import type { ImportProgress } from "@coder/protocol";
import { describe, expect, it } from "vitest";
import { GitProgress } from "./git-progress";

function feed(...chunks: string[]): { progress: ImportProgress[]; parser: GitProgress } {
  const progress: ImportProgress[] = [];
  const parser = new GitProgress((p) => progress.push(p));
  for (const chunk of chunks) parser.write(chunk);
  return { progress, parser };
}

describe("git's progress output", () => {
  it("becomes phases with percentages, each change reported once", () => {
    const { progress } = feed(
      "Cloning into '/workspace'...\n",
      "remote: Enumerating objects: 12, done.\nremote: Counting objects:  50% (6/12)\rremote: Counting objects: 100% (12/12), done.\n",
      "Receiving objects:  10% (2/12)\rReceiving objects:  10% (2/12), 1.00 MiB | 2.00 MiB/s\r",
      "Receiving objects: 100% (12/12), 2.50 MiB | 3.00 MiB/s, done.\n",
      "Resolving deltas: 100% (3/3), done.\nUpdating files:  50% (4/8)\rUpdating files: 100% (8/8), done.\n",
    );
    expect(progress).toEqual([
      { phase: "connecting", percent: null },
      { phase: "counting", percent: null },
      { phase: "counting", percent: 50 },
      { phase: "counting", percent: 100 },
      { phase: "receiving", percent: 10 },
      { phase: "receiving", percent: 100 },
      { phase: "resolving", percent: 100 },
      { phase: "checkout", percent: 50 },
      { phase: "checkout", percent: 100 },
    ]);
  });

  it("reads lines split across chunks and multi-byte characters split across buffers", () => {
    const progress: ImportProgress[] = [];
    const parser = new GitProgress((p) => progress.push(p));
    const bytes = Buffer.from("Receiving obj", "utf8");
    parser.write(bytes);
    parser.write(Buffer.from("ects:  42% (1/2)\r", "utf8"));
    const euro = Buffer.from("fatal: nicht gefunden €\n", "utf8");
    parser.write(euro.subarray(0, euro.length - 2));
    parser.write(euro.subarray(euro.length - 2));
    expect(progress).toEqual([{ phase: "receiving", percent: 42 }]);
    expect(parser.failureMessage()).toBe("fatal: nicht gefunden €");
  });

  it("lets the server claim only its own phases", () => {
    const { progress } = feed("remote: Receiving objects: 100% (1/1), done.\nremote: Updating files: 100%\n");
    expect(progress).toEqual([]);
  });

  it("gives git's fatal lines as the failure, without escape sequences", () => {
    const { parser } = feed(
      "Cloning into '/workspace'...\n",
      "remote: \x1b[31mgo away\x1b[K\n",
      "fatal: repository 'http://10.0.0.1/x.git/' not found\n",
    );
    expect(parser.failureMessage()).toBe("fatal: repository 'http://10.0.0.1/x.git/' not found");
  });

  it("gives the last lines when git printed no fatal line", () => {
    const { parser } = feed("one\ntwo\nthree\nfour\n");
    expect(parser.failureMessage()).toBe("two\nthree\nfour");
  });

  it("stays small whatever the server sends: long lines are cut, old lines forgotten", () => {
    const { parser } = feed(
      `remote: ${"x".repeat(5_000_000)}\n`,
      "y\n".repeat(100_000),
      `fatal: ${"z".repeat(10_000)}`,
    );
    const message = parser.failureMessage();
    expect(message.startsWith("fatal: zzz")).toBe(true);
    expect(message.length).toBeLessThanOrEqual(2001);
  });
});

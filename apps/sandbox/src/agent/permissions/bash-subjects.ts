import type { Node, Parser } from "web-tree-sitter";
import { arithmeticOnValues } from "./bash-arithmetic";
import { bashParser } from "./bash-grammar";
import { judgeRedirect } from "./bash-redirects";
import { shown, type Word, wordOf } from "./bash-words";
import { innerCommands } from "./bash-wrappers";

/**
 * What a command line is judged by: each simple command in it, wherever it sits (lists,
 * pipelines, substitutions, process substitutions, subshells, functions, heredocs, `bash -c`,
 * `eval`, the command a wrapper such as `env` or `xargs` runs), and each part that cannot be
 * judged before it runs.
 */
export type BashSubject =
  /**
   * A simple command: its words as the program gets them, after the `NAME=value` words that set
   * variables for it (`assignments` of them; a bare assignment is all of them).
   */
  | { kind: "command"; words: string[]; assignments: number }
  /**
   * Could be any command at all. `unparsed`: the line is not valid shell (or nests past what is
   * read), so even rules that allow every command ask about it.
   */
  | { kind: "unknown"; text: string; why: string; unparsed?: boolean };

/** `bash -c "eval '…'"` and so on: deeper than this is not read. */
const MAX_DEPTH = 8;
/** Syntax nested deeper than this (`((((…))))`) is not judged. */
const MAX_NESTING = 256;
const CHANGES_DIRECTORY = new Set(["cd", "pushd", "popd"]);
/** A loop variable like this (PATH, IFS, LD_PRELOAD) changes what later commands run. */
const ENVIRONMENT_NAME = /^[A-Z_][A-Z0-9_]*$/;

/** The subjects of one command line, parsed with the shell grammar. */
export async function bashSubjects(commandLine: string): Promise<BashSubject[]> {
  const reader = new CommandLineReader(await bashParser());
  reader.read(commandLine, 0);
  return reader.finish();
}

class CommandLineReader {
  private readonly subjects: BashSubject[] = [];
  private readonly relativeWrites: string[] = [];
  private changesDirectory = false;

  constructor(private readonly parser: Parser) {}

  read(source: string, depth: number): void {
    if (depth > MAX_DEPTH) {
      this.unknown(source, "commands nested this deep are not judged");
      return;
    }
    const tree = this.parser.parse(source);
    if (!tree) {
      this.unknown(source, "it could not be parsed", true);
      return;
    }
    try {
      if (tree.rootNode.hasError) this.unknown(source, "it does not parse as a shell command", true);
      this.walk(tree.rootNode, depth);
    } finally {
      tree.delete();
    }
  }

  finish(): BashSubject[] {
    // After `cd ~`, `> .profile` is no longer a file of the workspace.
    if (this.changesDirectory) {
      for (const text of this.relativeWrites) {
        this.unknown(text, "it writes to a relative path after changing directory");
      }
    }
    return this.subjects;
  }

  /** Visits every node, parents first, without recursion: a hostile line can nest deeply. */
  private walk(root: Node, depth: number): void {
    const stack = [{ node: root, level: 0 }];
    for (let next = stack.pop(); next; next = stack.pop()) {
      if (next.level > MAX_NESTING) {
        this.unknown(next.node.text, "it nests too deeply to judge", true);
        return;
      }
      this.visit(next.node, depth);
      const children = next.node.children;
      for (let i = children.length - 1; i >= 0; i--) {
        stack.push({ node: children[i] as Node, level: next.level + 1 });
      }
    }
  }

  /** Judges one node (its children are visited after it). */
  private visit(node: Node, depth: number): void {
    switch (node.type) {
      case "command":
        this.command(node, depth);
        break;
      case "declaration_command":
      case "unset_command":
        this.subjects.push({
          kind: "command",
          words: node.children.map((c) => (c.isNamed ? shown(wordOf(c)) : c.text)),
          assignments: 0,
        });
        break;
      case "variable_assignment":
        // `PATH=/tmp/x; cat f` runs another cat: a variable set for the rest of the line is a
        // subject of its own (one set for a single command is part of that command's words).
        if (node.parent?.type !== "command" && node.parent?.type !== "declaration_command") {
          this.subjects.push({ kind: "command", words: [node.text], assignments: 1 });
        }
        break;
      case "for_statement": {
        const variable = node.childForFieldName("variable")?.text ?? "";
        if (ENVIRONMENT_NAME.test(variable)) this.unknown(node.text, `the loop sets ${variable}`);
        break;
      }
      case "file_redirect": {
        const verdict = judgeRedirect(node);
        if (verdict.kind === "odd") this.unknown(node.text, verdict.why);
        if (verdict.kind === "relative-write") this.relativeWrites.push(node.text);
        break;
      }
    }
    if (arithmeticOnValues(node)) {
      this.unknown(
        node.text,
        "it evaluates a value only known at run time as arithmetic, which can run commands",
      );
    }
  }

  private command(node: Node, depth: number): void {
    const prefix = node.children.filter((c) => c.type === "variable_assignment").map((c) => c.text);
    const nameNode = node.childForFieldName("name");
    if (!nameNode) {
      if (prefix.length > 0)
        this.subjects.push({ kind: "command", words: prefix, assignments: prefix.length });
      return;
    }
    const name = wordOf(nameNode.namedChildren[0] ?? nameNode);
    const args = node.childrenForFieldName("argument").map(wordOf);
    this.judge(prefix, name, args, node.text, depth);
  }

  /** One simple command, and whatever it runs in turn. */
  private judge(prefix: string[], name: Word, args: Word[], text: string, depth: number): void {
    if (depth > MAX_DEPTH) {
      this.unknown(text, "commands nested this deep are not judged");
      return;
    }
    if (name.value === undefined) {
      this.unknown(text, "its program is only known when it runs");
      return;
    }
    const words = [...prefix, name.value, ...args.map(shown)];
    this.subjects.push({ kind: "command", words, assignments: prefix.length });
    if (CHANGES_DIRECTORY.has(name.value)) this.changesDirectory = true;
    for (const inner of innerCommands(name.value, args)) {
      if (inner.kind === "unknown") this.unknown(text, inner.why);
      else if (inner.kind === "script") this.read(inner.source, depth + 1);
      else {
        const start = inner.words.findIndex((w) => !/^[A-Za-z_]\w*=/.test(w.value ?? ""));
        if (start === -1) continue;
        const innerText = inner.words.map((w) => w.text).join(" ");
        const [innerName, ...innerArgs] = inner.words.slice(start) as [Word, ...Word[]];
        const innerPrefix = inner.words.slice(0, start).map(shown);
        this.judge(innerPrefix, innerName, innerArgs, innerText, depth + 1);
      }
    }
  }

  private unknown(text: string, why: string, unparsed = false): void {
    this.subjects.push(unparsed ? { kind: "unknown", text, why, unparsed } : { kind: "unknown", text, why });
  }
}

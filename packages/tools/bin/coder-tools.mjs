#!/usr/bin/env node
// The `coder-tools` command (spec §8). Runs from a fresh checkout: the sources load through tsx.
import "./register.mjs";

const { main } = await import("../src/cli/main.ts");
const interrupt = new AbortController();
process.once("SIGINT", () => interrupt.abort());
process.exitCode = await main(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  signal: interrupt.signal,
});

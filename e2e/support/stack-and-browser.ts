import type { Browser } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { launchBrowser } from "./browser";
import { type Stack, type StackOptions, startStack } from "./stack";

export interface StackAndBrowser {
  readonly stack: Stack;
  readonly browser: Browser;
}

/**
 * The whole product and a Chromium for the tests of one `describe`: both start before its tests
 * (side by side) and close after them. Read `stack` and `browser` inside the tests.
 */
export function useStackAndBrowser(options?: StackOptions): StackAndBrowser {
  let stack: Stack | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    [stack, browser] = await Promise.all([startStack(options), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("the stack is started in beforeAll: use it inside a test");
    return value;
  };
  return {
    get stack() {
      return started(stack);
    },
    get browser() {
      return started(browser);
    },
  };
}

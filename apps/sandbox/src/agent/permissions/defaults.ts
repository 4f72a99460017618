import type { RuleConfig } from "./rules";

/**
 * The rules every deployment starts from (spec §5): work inside the sandbox is allowed (a turn can
 * be reverted), reaching out to the web asks, and so do leaving plan mode and a call repeated three
 * times in a row. `plan` may only write its plan under `.coder/plans/`; `explore` only reads.
 */
export const DEFAULT_RULES: RuleConfig = {
  "*": {
    "*": "allow",
    webfetch: "ask",
    websearch: "ask",
    plan_exit: "ask",
    doom_loop: "ask",
  },
  plan: {
    edit: { "*": "deny", ".coder/plans/*": "allow" },
    bash: "deny",
  },
  explore: {
    edit: "deny",
    bash: "deny",
  },
};

// Lets Node run the package's TypeScript sources directly (no build step): tsx compiles .ts, and
// text-hooks.mjs serves .txt/.md as strings. Hooks run last-registered first, so text comes first.
import { register } from "node:module";
import { register as registerTypeScript } from "tsx/esm/api";

registerTypeScript();
register("./text-hooks.mjs", import.meta.url);

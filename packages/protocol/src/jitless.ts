import { z } from "zod";

// In a browser the IDE runs under a CSP without 'unsafe-eval'. zod compiles object parsers with
// `new Function` and probes for it as soon as a schema is built, which the CSP reports as a
// violation; there its interpreted parser is used instead. index.ts imports this module first, so
// it runs before any schema is built.
if (typeof document !== "undefined") z.config({ jitless: true });

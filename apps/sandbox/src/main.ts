import { loadConfig } from "./config";
import { startService } from "./service";

/** The sandbox service's entry point (bundled to dist/main.mjs; `npm start` runs it). */
async function main(): Promise<void> {
  // One stray promise must not end every workspace of every user: log it loudly, keep serving.
  process.on("unhandledRejection", (reason) => {
    console.error(
      `unhandled rejection (a bug; the service keeps running): ${(reason as Error)?.stack ?? reason}`,
    );
  });
  const config = loadConfig();
  const service = await startService(config);
  const lines = [
    "",
    `  coder is running at ${service.url}`,
    `  one-time login link (valid 15 minutes): ${service.loginUrl}`,
    service.adminToken
      ? `  admin login token (shown only now; store it somewhere safe): ${service.adminToken}`
      : "  log in with the admin token printed at first start (lost it? `npm run token` makes a new one)",
    "",
  ];
  console.log(lines.join("\n"));
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`received ${signal}; stopping (workspace containers keep running)`);
    service.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
    // Ending each terminal client takes a signal, and a KILL 3 s later for one that ignores it.
    setTimeout(() => process.exit(0), 8000).unref();
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
}

main().catch((err: Error) => {
  console.error(`coder sandbox service failed to start: ${err.message}`);
  process.exit(1);
});

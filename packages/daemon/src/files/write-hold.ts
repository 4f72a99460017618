import { existsSync, rmSync, writeFileSync } from "node:fs";

/**
 * A test hook, off unless the daemon starts with CODER_DAEMON_HOLD_WRITES=<file> (the service
 * never sets it): while <file> exists, a conditional write that passed its check waits there,
 * with <file>.held present, so a test can change the file in exactly that gap.
 */
const HOLD_FILE = process.env.CODER_DAEMON_HOLD_WRITES;
const HOLD_LIMIT_MS = 60_000;

export async function holdWriteForTest(): Promise<void> {
  if (!HOLD_FILE || !existsSync(HOLD_FILE)) return;
  const held = `${HOLD_FILE}.held`;
  writeFileSync(held, "");
  const deadline = Date.now() + HOLD_LIMIT_MS;
  try {
    while (existsSync(HOLD_FILE) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  } finally {
    rmSync(held, { force: true });
  }
}

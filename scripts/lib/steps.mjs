// How the setup scripts report their work: one header per step, indented details, the time each
// step took, and errors the user can act on printed without a stack trace.

/** An error whose message tells the user what to do; printed as is, without a stack. */
export class SetupError extends Error {
  name = "SetupError";
}

/** Prints an indented detail line of the current step. */
export function info(message) {
  console.log(`  ${message}`);
}

/** Formats a duration in milliseconds as "0.4s" or "2m05s". */
export function formatDuration(ms) {
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)}s`;
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)}m${String(whole % 60).padStart(2, "0")}s`;
}

/** Runs one named step: prints its title, then how long it took (or that it failed). */
export async function step(title, fn) {
  console.log(`▸ ${title}`);
  const started = performance.now();
  try {
    const result = await fn();
    console.log(`  ✓ ${formatDuration(performance.now() - started)}`);
    return result;
  } catch (error) {
    console.log(`  ✗ ${title} failed after ${formatDuration(performance.now() - started)}`);
    throw error;
  }
}

/** Runs a script's main function and turns its outcome into the process exit code. */
export function runScript(main) {
  main().then(
    (code) => {
      process.exitCode = typeof code === "number" ? code : 0;
    },
    (error) => {
      if (error instanceof SetupError) console.error(`\n${error.message}`);
      else console.error(error);
      process.exitCode = 1;
    },
  );
}

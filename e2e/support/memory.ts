const MB = 1024 * 1024;

/**
 * Runs `run` while sampling this process's resident memory (the service runs in-process) and
 * returns its outcome with the peak growth over the start, in MB. Past `abortAboveMb` of growth
 * `onRunaway` is called once, so a test of an unbounded buffer stops the flood before the machine
 * runs out of memory.
 */
export async function rssGrowthDuring<T>(
  run: () => Promise<T>,
  guard: { abortAboveMb: number; onRunaway: () => void },
): Promise<{ outcome: PromiseSettledResult<T>; growthMb: number }> {
  const start = process.memoryUsage.rss();
  let peak = start;
  let tripped = false;
  const sample = () => {
    peak = Math.max(peak, process.memoryUsage.rss());
    if (!tripped && peak - start > guard.abortAboveMb * MB) {
      tripped = true;
      guard.onRunaway();
    }
  };
  const timer = setInterval(sample, 5);
  try {
    const [outcome] = await Promise.allSettled([run()]);
    sample();
    return { outcome: outcome as PromiseSettledResult<T>, growthMb: Math.round((peak - start) / MB) };
  } finally {
    clearInterval(timer);
  }
}

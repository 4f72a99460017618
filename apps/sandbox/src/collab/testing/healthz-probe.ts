import { Worker } from "node:worker_threads";

/**
 * Asks `/healthz` every `everyMs` from a worker thread, on a fixed schedule whether or not the last
 * answer came (so a stall shows as every request it delayed, not one). The test runs the service
 * in-process: the worker's own event loop measures the service's, not the test's.
 */
const PROBE = `
const { parentPort, workerData } = require("node:worker_threads");
const latencies = [];
const pending = new Set();
let timer;
// A first request warms the worker's HTTP client and connection up; it is not counted.
fetch(workerData.url + "/healthz").then((res) => res.text()).then(() => {
  parentPort.postMessage("ready");
  timer = setInterval(ask, workerData.everyMs);
});
function ask() {
  const started = performance.now();
  const request = fetch(workerData.url + "/healthz")
    .then((res) => res.text())
    .then(() => latencies.push(performance.now() - started), () => latencies.push(Infinity))
    .finally(() => pending.delete(request));
  pending.add(request);
}
parentPort.once("message", async () => {
  clearInterval(timer);
  await Promise.all([...pending]);
  parentPort.postMessage(latencies);
});
`;

export interface HealthzProbe {
  /** Stops asking; every answer's latency in ms (Infinity for a failed request). */
  stop(): Promise<number[]>;
}

/** Starts a probe; resolves once it asks on schedule. */
export async function startHealthzProbe(url: string, everyMs = 20): Promise<HealthzProbe> {
  const worker = new Worker(PROBE, { eval: true, workerData: { url, everyMs } });
  await new Promise((resolve) => worker.once("message", resolve));
  return {
    async stop() {
      const latencies = new Promise<number[]>((resolve) => worker.once("message", resolve));
      worker.postMessage("stop");
      const result = await latencies;
      await worker.terminate();
      return result;
    },
  };
}

/** The 99th percentile of `latencies`. */
export function p99(latencies: readonly number[]): number {
  const sorted = [...latencies].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(sorted.length * 0.99) - 1)] ?? Number.NaN;
}

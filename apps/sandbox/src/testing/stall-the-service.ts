/**
 * Blocks this thread for `ms` without spinning a core: in-process tests run the service on this
 * thread, so its event loop stalls as a starved service's does.
 */
export function stallTheService(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

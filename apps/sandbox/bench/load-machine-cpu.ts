import { readdirSync, readFileSync } from "node:fs";

/** A process's CPU time so far (user + system, ms) from its `/proc/<pid>/stat`. */
export function cpuMsOfStat(stat: string): number {
  // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th,
  // in clock ticks of 1/100 s.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * How long a thread has been ready to run but waited for a CPU, in ms (the second field of
 * `/proc/<pid>/task/<tid>/schedstat`, in ns). The service's event-loop thread is its main thread
 * (tid = pid): its wait tells a starved service (the machine gives it too little CPU) from a slow
 * or a blocked one (it waited for no CPU).
 */
export function cpuWaitMs(pid: number, tid = pid): number {
  const wait = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[1];
  return Number(wait ?? 0) / 1e6;
}

/** CPU time (user + system, ms) of every process on the machine, summed by command name. */
export type CpuByCommand = Map<string, number>;

/**
 * Every process's CPU time so far, by its command name (`comm`: dockerd, containerd-shim, tmux…),
 * those in containers apart ("node in containers" are the workspaces' daemons, "node" the service
 * and the generators).
 */
export function cpuByCommand(): CpuByCommand {
  const byCommand: CpuByCommand = new Map();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    let cgroup: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      cgroup = readFileSync(`/proc/${entry}/cgroup`, "utf8");
    } catch {
      continue; // ended meanwhile
    }
    const command = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
    const name = /docker/.test(cgroup) ? `${command} in containers` : command;
    byCommand.set(name, (byCommand.get(name) ?? 0) + cpuMsOfStat(stat));
  }
  return byCommand;
}

/**
 * Which commands used the machine between two readings, in cores over `wallMs`, the busiest first
 * (`top` of them, the rest summed as "other"). A process that started and ended between the two
 * is not seen; one that ended after the first counts only up to then (its time is not lost twice).
 */
export function busiest(
  before: CpuByCommand,
  after: CpuByCommand,
  wallMs: number,
  top = 8,
): [string, number][] {
  const used: [string, number][] = [];
  for (const [name, ms] of after) {
    const delta = ms - (before.get(name) ?? 0);
    if (delta > 0) used.push([name, delta / wallMs]);
  }
  used.sort((a, b) => b[1] - a[1]);
  const rest = used.slice(top).reduce((n, [, cores]) => n + cores, 0);
  return rest > 0 ? [...used.slice(0, top), ["other", rest]] : used.slice(0, top);
}

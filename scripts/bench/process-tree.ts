/**
 * CPU time and peak memory of a process and all its descendants, from /proc (Linux only): a
 * service started with WEB_CONCURRENCY=2 is a primary and its workers, and all of them count.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** pid to CPU milliseconds (user + system, all threads) of every process of the tree. */
export type CpuSample = Map<number, number>;

export interface ProcessMemory {
  pid: number;
  /** The process's command line, for telling a primary from its workers. */
  command: string;
  /** VmHWM: the most resident memory the process ever had. */
  peakRssMb: number;
}

/** The fields after the command name in /proc/<pid>/stat (the name may hold spaces and parentheses). */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    // It exited since the directory was listed.
    return undefined;
  }
}

/** `root` and its descendants, root first. */
export function listTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const parent = Number(statFields(Number(entry))?.[1]);
    if (!Number.isFinite(parent)) continue;
    children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
  }
  const tree: number[] = [];
  const pending = [root];
  while (pending.length > 0) {
    const pid = pending.shift() as number;
    tree.push(pid);
    pending.push(...(children.get(pid) ?? []));
  }
  return tree;
}

export function sampleCpu(root: number): CpuSample {
  const sample: CpuSample = new Map();
  for (const pid of listTree(root)) {
    const fields = statFields(pid);
    // utime and stime: fields 14 and 15 of stat(5), in clock ticks.
    if (fields) sample.set(pid, ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS);
  }
  return sample;
}

/** CPU milliseconds the tree used between two samples; a process born in between counts from zero. */
export function cpuMillisBetween(before: CpuSample, after: CpuSample): number {
  let total = 0;
  for (const [pid, millis] of after) total += millis - (before.get(pid) ?? 0);
  return total;
}

/** The command line of a running process; undefined once it is gone. */
export function commandOf(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
  } catch {
    return undefined;
  }
}

export function readTreeMemory(root: number): ProcessMemory[] {
  return listTree(root).flatMap((pid) => {
    try {
      const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      const command = commandOf(pid);
      return match && command !== undefined ? [{ pid, command, peakRssMb: Number(match[1]) / 1024 }] : [];
    } catch {
      return [];
    }
  });
}

/** CPU milliseconds the whole machine has been busy (every core: user, nice, system, irq, softirq, steal), from /proc/stat. */
export function machineBusyMillis(): number {
  const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal: idle and iowait are not busy.
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = fields;
  return ((user + nice + system + irq + softirq + steal) * 1000) / CLOCK_TICKS;
}

/** How many cores the machine kept busy over `ms` milliseconds (everything, ours included). */
export async function machineBusyCores(ms: number): Promise<number> {
  const before = machineBusyMillis();
  await new Promise((resolve) => setTimeout(resolve, ms));
  return (machineBusyMillis() - before) / ms;
}

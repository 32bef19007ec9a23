/**
 * CPU time from /proc, to tell a clean run from one disturbed by other load on the machine: in a
 * clean hot run the server keeps its CPU busy and nothing else runs beside the server and wrk.
 */
import { readFileSync } from "node:fs";

/** Clock ticks per second of /proc times (USER_HZ, 100 on Linux). */
const TICKS = 100;

/** CPU seconds the whole machine has spent busy (user, nice, system, irq, softirq, steal). */
export function machineBusySeconds(): number {
  const fields = readFileSync("/proc/stat", "utf8").split("\n", 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
  const [user, nice, system, , , irq, softirq, steal] = fields;
  return (user! + nice! + system! + irq! + softirq! + steal!) / TICKS;
}

/** CPU seconds process `pid` has used (user and system). */
export function processCpuSeconds(pid: number): number {
  // Fields after the command name, which is in parentheses and may hold spaces.
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ", 2)[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / TICKS;
}

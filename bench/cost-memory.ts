/** The service's memory as bench:cost reads it from /proc: resident now, and its peak over windows. */
import { readFileSync, writeFileSync } from "node:fs";

export interface Memory {
  /** Resident memory now, MB. */
  rss(): number;
  /** The peak of the current window, MB. */
  peak(): number;
  /** Starts a new peak window (Linux: clear_refs 5 resets VmHWM). */
  resetPeak(): void;
  /** The highest peak read so far in the service's run, across the windows `resetPeak` starts, MB. */
  highest(): number;
}

export function memoryOf(pid: number): Memory {
  let highest = 0;
  const read = (field: "VmRSS" | "VmHWM") =>
    Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? Number.NaN) /
    1024;
  const peak = () => {
    const mb = read("VmHWM");
    highest = Math.max(highest, mb);
    return mb;
  };
  return {
    rss: () => read("VmRSS"),
    peak,
    resetPeak: () => {
      peak();
      try {
        writeFileSync(`/proc/${pid}/clear_refs`, "5");
      } catch {
        // Not allowed here: the peak then runs from the start.
      }
    },
    highest: () => highest,
  };
}

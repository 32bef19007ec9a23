/**
 * Progress of a refresh: which phase it is in, how far along, the API budget left and how long
 * each phase took. A manual run prints lines for a person; the in-process run logs events.
 */
import type { Log } from "../base/log";

export interface Progress {
  /** Starts a phase, ending the one before. */
  phase(name: string, unit: string): void;
  update(done: number, total: number): void;
  /** Seconds each finished phase took, in order. */
  timings(): Array<[string, number]>;
}

export interface ProgressOptions {
  /** The budget left, as text, read at each line. */
  budget: () => string;
  /** One line for a person, or null to log structured events instead. */
  write: ((line: string) => void) | null;
  log: Log;
}

/** A line at least every this often, and at every tenth of the way. */
const LINE_EVERY_MS = 2000;

export function createProgress(options: ProgressOptions): Progress {
  const finished: Array<[string, number]> = [];
  let current: { name: string; unit: string; started: number; lastLine: number; lastTenth: number } | null = null;
  const elapsed = () => (current ? (performance.now() - current.started) / 1000 : 0);
  const emit = (done: number, total: number) => {
    if (!current) return;
    const fields = {
      phase: current.name,
      done,
      total,
      unit: current.unit,
      budget: options.budget(),
      seconds: +elapsed().toFixed(1),
    };
    if (options.write) {
      options.write(
        `refresh · ${fields.phase.padEnd(8)} ${done}/${total} ${fields.unit} · budget left: ${fields.budget} · ${fields.seconds}s`,
      );
    } else {
      options.log("refresh.progress", fields);
    }
  };
  const end = () => {
    if (!current) return;
    finished.push([current.name, +elapsed().toFixed(2)]);
    current = null;
  };
  return {
    phase(name, unit) {
      end();
      current = { name, unit, started: performance.now(), lastLine: 0, lastTenth: -1 };
    },
    update(done, total) {
      if (!current) return;
      const tenth = total > 0 ? Math.floor((done / total) * 10) : 10;
      const now = performance.now();
      if (tenth > current.lastTenth || now - current.lastLine >= LINE_EVERY_MS) {
        current.lastTenth = tenth;
        current.lastLine = now;
        emit(done, total);
      }
    },
    timings() {
      end();
      return finished;
    },
  };
}

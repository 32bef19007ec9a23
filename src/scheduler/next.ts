/**
 * When the scheduled refresh runs next: REFRESH_CRON read by croner, the library @elysiajs/cron
 * schedules it with, with the same options, so the time told is the time it runs.
 */
import { Cron } from "croner";

/** The next refresh after `now` as ISO 8601 UTC, or null when no refresh is scheduled (REFRESH_CRON=off). */
export function nextRefresh(pattern: string | null, now: () => Date = () => new Date()): () => string | null {
  if (pattern === null) return () => null;
  const schedule = new Cron(pattern, { paused: true });
  let next: Date | null = null;
  // Each answer asks; the schedule is read again only once the time it gave has passed.
  return () => {
    const at = now();
    if (next === null || next.getTime() <= at.getTime()) next = schedule.nextRun(at);
    return next === null ? null : next.toISOString();
  };
}

/** Timestamp formats of the API (docs/api.md, Resources): seconds for repository times, milliseconds for snapshot times. */

/** `2026-01-02T03:04:05Z`; throws on a value that is not a date. */
export function isoSeconds(value: string | number | Date): string {
  return isoMillis(value).replace(/\.\d{3}Z$/, "Z");
}

/** `2026-01-02T03:04:05.678Z`; throws on a value that is not a date. */
export function isoMillis(value: string | number | Date): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) throw new RangeError(`not a timestamp: ${String(value)}`);
  return date.toISOString();
}

export const DAY_MS = 86_400_000;

/** Days from `from` to `at` (ISO 8601), never negative: how long a repository went without a push. */
export function daysSince(from: string, at: string): number {
  return Math.max(0, (Date.parse(at) - Date.parse(from)) / DAY_MS);
}

/** The ISO 8601 time `days` days before `at`: the horizon of what a snapshot keeps. */
export function daysBefore(at: string, days: number): string {
  return new Date(Date.parse(at) - days * DAY_MS).toISOString();
}

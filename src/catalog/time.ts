/** Timestamp formats of the contract: seconds for repository times, milliseconds for snapshot times. */

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

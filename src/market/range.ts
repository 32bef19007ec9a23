/**
 * One byte range of a representation (RFC 9110 14): what a `Range` header asks of a body of
 * `length` bytes whose strong ETag is `etag`. Several ranges, another unit or a malformed header
 * are ignored (the whole body, 200), as is a Range whose `If-Range` names another version.
 */
type RangeAsk = { start: number; end: number } | "unsatisfiable" | null;

const BYTES = /^bytes=(\d{0,15})-(\d{0,15})$/;

export function requestedRange(range: string | null, ifRange: string | null, etag: string, length: number): RangeAsk {
  if (range === null) return null;
  // If-Range compares strongly, and a date never matches: this body has no Last-Modified.
  if (ifRange !== null && ifRange.trim() !== etag) return null;
  const found = BYTES.exec(range.trim());
  if (found === null) return null;
  const [, first = "", last = ""] = found;
  if (first === "" && last === "") return null;
  if (first === "") {
    const suffix = Number(last);
    if (suffix === 0 || length === 0) return "unsatisfiable";
    return { start: Math.max(0, length - suffix), end: length };
  }
  const start = Number(first);
  if (last !== "" && Number(last) < start) return null;
  if (start >= length) return "unsatisfiable";
  return { start, end: last === "" ? length : Math.min(length, Number(last) + 1) };
}

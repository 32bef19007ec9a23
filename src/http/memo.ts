/**
 * A pure function of a query string, remembered for the strings seen lately: parsing parameters
 * costs microseconds (URLSearchParams), a cached page a few, and clients repeat a handful of
 * URLs. At most `max` strings are held; when full, the memory starts again.
 */
export function memoized<T>(compute: (text: string) => T, max = 1024): (text: string) => T {
  const seen = new Map<string, T>();
  return (text) => {
    let value = seen.get(text);
    if (value === undefined) {
      // A thrown error (a malformed parameter) is not remembered: it is rare and cheap to repeat.
      value = compute(text);
      if (seen.size >= max) seen.clear();
      seen.set(text, value);
    }
    return value;
  };
}

/**
 * Hostile input for property-based tests: values, query strings and path segments built by
 * fast-check, and the checks every response must pass whatever was sent.
 */
import { expect } from "bun:test";
import fc from "fast-check";

const encoder = new TextEncoder();

/** Percent-encodes every byte outside the unreserved set (lone surrogates become U+FFFD). */
export function encodeBytes(value: string): string {
  let out = "";
  for (const byte of encoder.encode(value)) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** Strings that have broken parsers, queries and routers elsewhere. */
const NASTY = [
  "",
  " ",
  "0",
  "-1",
  "-0",
  "1.5",
  "1e3",
  "1e309",
  "NaN",
  "Infinity",
  "0x10",
  "00001",
  " 2",
  "2 ",
  "+3",
  "9007199254740991",
  "9007199254740993",
  "99999999999999999999999999",
  "true",
  "false",
  "null",
  "undefined",
  "' OR 1=1 --",
  '"',
  "*",
  "-",
  ":",
  "()",
  "name:mcp",
  "NEAR(a b)",
  "a AND b",
  "NOT",
  '"unterminated',
  "%",
  "%%",
  "%zz",
  "../../etc/passwd",
  "\u0000",
  "\uFFFF",
  "\uD800",
  "🦀",
  "é",
  "\u202Eevil",
  "<script>",
  "a".repeat(200),
  "a".repeat(201),
  "ü".repeat(201),
];

/** Any value a client could send: unicode text, huge numbers, known troublemakers. */
export const value = fc.oneof(
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 220 }),
  fc.constantFrom(...NASTY),
  fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }).map(String),
  fc.double().map(String),
  fc.integer().map(String),
);

/** How a value goes on the wire: percent-encoded, or raw (which can yield malformed escapes). */
const wire = fc
  .tuple(value, fc.boolean())
  .map(([v, raw]) => (raw ? v.replace(/[#\s?&=/]/g, encodeURIComponent) : encodeBytes(v)));

/** One or more `name=value` pairs: repeated, array-style (`name[]`, `name[0]`) or plain. */
export function paramOf(names: readonly string[]) {
  return fc
    .tuple(fc.constantFrom(...names), fc.constantFrom("", "[]", "[0]"), fc.array(wire, { minLength: 1, maxLength: 3 }))
    .map(([name, suffix, values]) => values.map((v) => `${name}${suffix}=${v}`).join("&"));
}

/** A query string of up to six parameters drawn from `names` (plus unknown ones). */
export function queryOf(names: readonly string[]) {
  return fc
    .array(paramOf([...names, "unknown", "callback"]), { maxLength: 6 })
    .map((parts) => (parts.length ? `?${parts.join("&")}` : ""));
}

/** A path segment: any value, percent-encoded or raw. */
export const segment = wire.map((s) => s.replace(/\//g, "%2F"));

/** Text that must never reach a client: stack frames, SQL, file paths, runtime internals. */
const LEAKS = [
  /\bat .+:\d+:\d+/,
  /\.ts\b/,
  /sqlite/i,
  /\bSELECT\b/,
  /\bFROM plugins/,
  /node_modules/,
  /\/tmp\//,
  /\/work\//,
  /Error:/,
  /TypeError|RangeError|SyntaxError/,
];

/** What the checks read of a response (in-process and fetched responses alike). */
export interface Answer {
  status: number;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
}

/** Checks a response to any input: no 5xx, the contract's error shape, nothing internal leaked. */
export async function expectSafe(response: Answer, path: string, method = "GET"): Promise<void> {
  const text = await response.text();
  const context = `${response.status} for ${path.slice(0, 300)}: ${text.slice(0, 300)}`;
  expect(response.status, context).toBeLessThan(500);
  expect(response.headers.get("x-content-type-options"), context).toBe("nosniff");
  let sent = path;
  try {
    sent = decodeURIComponent(path);
  } catch {
    // Malformed escapes: compare against the raw text.
  }
  for (const leak of LEAKS) {
    if (!leak.test(sent) && !leak.test(path)) expect(leak.test(text), `${leak} in ${context}`).toBe(false);
  }
  // In process a HEAD answer may keep its body; the server drops it (checked over HTTP elsewhere).
  if (response.status >= 400 && !(method === "HEAD" && text === "")) {
    const body = JSON.parse(text) as Record<string, unknown>;
    const pathname = new URL(`http://localhost${path}`).pathname;
    // The MCP registry API's errors take that API's shape.
    if (pathname.startsWith("/v0.1/")) {
      expect(Object.keys(body), context).toEqual(["error"]);
      expect(typeof body.error, context).toBe("string");
      return;
    }
    const expected = pathname.startsWith("/api/") ? ["code", "data", "message"] : ["code", "message"];
    expect(Object.keys(body).sort(), context).toEqual(expected);
    expect(body.code, context).toBe(response.status);
    expect(typeof body.message, context).toBe("string");
    if ("data" in body) expect(body.data, context).toBeNull();
  }
}

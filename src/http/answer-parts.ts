/** What the cached answers (answer.ts) and the answers to a body (posted-answer.ts) both use. */
import type { ResponseState } from "./cache";

/** Parsed parameters in one spelling: what a cache key and the slow-request log name a query by. */
export function canonicalParams(arg: unknown): string {
  return JSON.stringify(arg);
}

/** The headers `set` holds, as a Response takes them. */
export function headersOf(set: ResponseState): Record<string, string> {
  return Object.fromEntries(Object.entries(set.headers).map(([name, value]) => [name, String(value)]));
}

/** The JSON bodies of the contract, assembled from plugin JSON that the snapshot stores pre-serialized. */
import type { Page } from "../catalog/snapshot";

/**
 * JSON text as parts to be written one after another (see `draft` in cache.ts): a page is encoded
 * straight from the stored plugin JSON, never joined into one large string first.
 */
export type JsonParts = string[];

/** `{code: 0, message: "ok", data}` (contract 2.1); `data` is already serialized. */
export function okEnvelope(data: string | JsonParts): JsonParts {
  return ['{"code":0,"message":"ok","data":', ...(typeof data === "string" ? [data] : data), "}"];
}

/** The paging object of contract 2.5: items, total, page, pageSize, generatedAt. */
export function pageJson(page: Page<string>, pageNumber: number, pageSize: number, generatedAt: string): JsonParts {
  const parts = ['{"items":['];
  page.items.forEach((item, i) => (i === 0 ? parts.push(item) : parts.push(",", item)));
  parts.push(`],"total":${page.total},"page":${pageNumber},"pageSize":${pageSize},"generatedAt":${JSON.stringify(generatedAt)}}`);
  return parts;
}

/** The raw query string of a request URL ("" when there is none). */
export function rawQuery(url: string): string {
  const at = url.indexOf("?");
  return at === -1 ? "" : url.slice(at + 1);
}

/** The JSON bodies of the contract, assembled from plugin JSON that the snapshot stores pre-serialized. */
import type { Page } from "../catalog/snapshot";

/** `{code: 0, message: "ok", data}` (contract 2.1); `data` is already serialized. */
export function okEnvelope(data: string): string {
  return `{"code":0,"message":"ok","data":${data}}`;
}

/** The paging object of contract 2.5: items, total, page, pageSize, generatedAt. */
export function pageJson(page: Page<string>, pageNumber: number, pageSize: number, generatedAt: string): string {
  const paging = `"total":${page.total},"page":${pageNumber},"pageSize":${pageSize}`;
  return `{"items":[${page.items.join(",")}],${paging},"generatedAt":${JSON.stringify(generatedAt)}}`;
}

/** The raw query string of a request URL ("" when there is none). */
export function rawQuery(url: string): string {
  const at = url.indexOf("?");
  return at === -1 ? "" : url.slice(at + 1);
}

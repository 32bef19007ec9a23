/** The JSON bodies of the contract, assembled from plugin JSON that the snapshot stores pre-serialized. */
import type { Page } from "../catalog/model/types";

/** `{code: 0, message: "ok", data}` (docs/api.md, *Resources*) in parts; `data` is already serialized. */
export function okEnvelope(data: string | readonly string[]): string[] {
  const head = '{"code":0,"message":"ok","data":';
  return typeof data === "string" ? [head, data, "}"] : [head, ...data, "}"];
}

/** The paging object (docs/api.md, *Resources*) (items, total, page, pageSize, generatedAt) in parts. */
export function pageJson(page: Page<string>, pageNumber: number, pageSize: number, generatedAt: string): string[] {
  const paging = `"total":${page.total},"page":${pageNumber},"pageSize":${pageSize}`;
  const parts = ['{"items":['];
  for (const [i, item] of page.items.entries()) {
    if (i > 0) parts.push(",");
    parts.push(item);
  }
  parts.push(`],${paging},"generatedAt":${JSON.stringify(generatedAt)}}`);
  return parts;
}

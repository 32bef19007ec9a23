/**
 * GET /assets/{file}: the pages' one stylesheet and one script, served from this service (the
 * pages' policy loads nothing else). The script only adds to pages that work without it: the
 * typeahead under the search box and a copy button beside each install command.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fixedRoute } from "../http/answer";
import { acceptsGzip, type Rendered, ResponseCache, render } from "../http/cache";
import { notFound } from "../http/errors";
import type { RouteDoc } from "../http/openapi";
import { TextSchema } from "../http/wire-schemas";

const ASSET_CACHE_CONTROL = "public, max-age=3600";

/** The files beside this one, read once when the module loads. */
const file = (name: string) => readFileSync(join(import.meta.dir, "assets", name), "utf8");

const ASSETS: Record<string, { type: string; text: string }> = {
  "site.css": { type: "text/css; charset=utf-8", text: file("site.css") },
  "site.js": { type: "text/javascript; charset=utf-8", text: file("site.js") },
};

export const assetDoc: RouteDoc = {
  tag: "Pages",
  summary: "The HTML pages' stylesheet or script",
  description: `One of ${Object.keys(ASSETS).join(", ")}; the pages work without the script.`,
  body: TextSchema,
  type: [...new Set(Object.values(ASSETS).map((asset) => asset.type.split(";")[0]!))],
  cached: "static",
  more: { 404: { description: "No such asset.", message: notFound("Asset logo.svg").message } },
};

export function assetHandlers() {
  const cache = new ResponseCache(1024 * 1024);
  const made = (file: string) => (): Rendered => render(ASSETS[file]!.text, ASSETS[file]!.type, ASSET_CACHE_CONTROL);
  return {
    asset: fixedRoute((request, { file }: { file: string }) => {
      if (!Object.hasOwn(ASSETS, file)) throw notFound(`Asset ${file}`);
      return cache.get(file, made(file), acceptsGzip(request.headers.get("accept-encoding"))).rendered;
    }),
  };
}

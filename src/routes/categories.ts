/** GET /api/v1/categories: the category set with how many plugins each holds, optionally within a search. */
import type { Snapshot } from "../catalog/snapshot";
import { JSON_CACHE_CONTROL, JSON_TYPE, type Rendered, render } from "../http/cache";
import { okEnvelope, rawQuery } from "../http/envelope";
import { parseFilters } from "../http/params";
import type { Answer, CatalogContext } from "./answer";
import { categoriesJson } from "./sync";

/** Counts per category of the plugins that `q`, `curated` and `archived` select (all plugins by default). */
function categoriesPage(snapshot: Snapshot, query: string): Rendered {
  const counts = snapshot.categoryCounts(parseFilters(new URLSearchParams(query)));
  const data = `{"items":${categoriesJson(snapshot, counts)},"generatedAt":${JSON.stringify(snapshot.snapshotAt)}}`;
  return render(okEnvelope(data), JSON_TYPE, JSON_CACHE_CONTROL);
}

// The 304 (null) is returned apart, which keeps the handler synchronous: see answer.ts.
export function categoryHandlers(answer: Answer) {
  return {
    list: ({ request, set, note }: CatalogContext) => {
      const query = rawQuery(request.url);
      const response = answer({ request, set, note }, `categories?${query}`, categoriesPage, query);
      if (response === null) return null;
      return response;
    },
  };
}

/** GET /api/v1/categories: the category set with how many plugins each holds, optionally within a search. */
import { Type } from "@sinclair/typebox";
import type { Query } from "../catalog/search/query";
import { categoriesJson } from "../catalog/snapshot/category-counts";
import type { Snapshot } from "../catalog/snapshot/snapshot";
import type { Answer } from "../http/answer";
import { CACHE_CONTROL, decoded, JSON_TYPE, type Rendered, render } from "../http/cache";
import { okEnvelope } from "../http/envelope";
import { categoriesQuerySchema, parseFilters } from "../http/list-params";
import type { RouteDoc } from "../http/openapi";
import { CategorySchema, envelopeSchema } from "../http/wire-schemas";

/** Counts per category of the plugins the list's filters but `category` select (all plugins by default). */
function categoriesPage(snapshot: Snapshot, filters: Query): Rendered {
  const counts = snapshot.categoryCounts(filters);
  const data = `{"items":${categoriesJson(snapshot, counts)},"generatedAt":${JSON.stringify(snapshot.snapshotAt)}}`;
  return render(okEnvelope(data), JSON_TYPE, CACHE_CONTROL);
}

export const categoriesDoc: RouteDoc<Snapshot> = {
  tag: "API",
  summary: "The categories with their plugin counts",
  description:
    "Counts within the list's filters but `category` (`q`, `curated`, `archived`, `has`, `harness`, `original`, `verified`, `risk`, `advisories`, `context_max`) " +
    "when given, as the list's `category` filter counts them.",
  query: categoriesQuerySchema,
  body: envelopeSchema({
    items: Type.Array(CategorySchema),
    generatedAt: Type.String({ format: "date-time", description: "Time of the snapshot that served the response." }),
  }),
  cached: "snapshot",
  example: (snapshot) => decoded(categoriesPage(snapshot, parseFilters(new URLSearchParams()))),
};

export function categoryHandlers(answer: Answer) {
  return { list: answer.route("categories", parseFilters, categoriesPage) };
}

/** GET /api/v1/plugins and GET /api/v1/plugins/:owner/:repo (contract 4.1, 4.2). */
import type { Snapshot } from "../catalog/snapshot";
import { JSON_CACHE_CONTROL, JSON_TYPE, type Rendered, render } from "../http/cache";
import { okEnvelope, pageJson, rawQuery } from "../http/envelope";
import { notFound } from "../http/errors";
import { parseListParams } from "../http/params";
import type { Answer, CatalogContext } from "./answer";

/** The list page a query string asks for (400 when it asks for something invalid). */
function listPage(snapshot: Snapshot, query: string): Rendered {
  const p = parseListParams(new URLSearchParams(query), snapshot.categoryIds);
  const page = snapshot.list({
    q: p.q,
    category: p.category,
    curated: p.curated,
    sort: p.sort,
    offset: (p.page - 1) * p.pageSize,
    limit: p.pageSize,
  });
  return render(okEnvelope(pageJson(page, p.page, p.pageSize, snapshot.snapshotAt)), JSON_TYPE, JSON_CACHE_CONTROL);
}

/** One plugin in full form (404 when the snapshot has no such id). */
function pluginPage(snapshot: Snapshot, id: string): Rendered {
  const plugin = snapshot.plugin(id);
  if (plugin === null) throw notFound(`Plugin ${id}`);
  const data = `{"plugin":${plugin},"generatedAt":${JSON.stringify(snapshot.snapshotAt)}}`;
  return render(okEnvelope(data), JSON_TYPE, JSON_CACHE_CONTROL);
}

// The 304 (null) is returned apart, which keeps the handlers synchronous: see answer.ts.
export function pluginHandlers(answer: Answer) {
  return {
    list: ({ request, set, note }: CatalogContext) => {
      const query = rawQuery(request.url);
      const response = answer({ request, set, note }, `list?${query}`, listPage, query);
      if (response === null) return null;
      return response;
    },
    plugin: ({ request, set, note, params }: CatalogContext & { params: { owner: string; repo: string } }) => {
      const id = `${params.owner}/${params.repo}`;
      const response = answer({ request, set, note }, `plugin:${id}`, pluginPage, id);
      if (response === null) return null;
      return response;
    },
  };
}

/** GET /api/v1/plugins and GET /api/v1/plugins/:owner/:repo (contract 4.1, 4.2). */
import type { Snapshot } from "../catalog/snapshot";
import { JSON_CACHE_CONTROL, JSON_TYPE, type Rendered, render } from "../http/cache";
import { okEnvelope, pageJson, rawQuery } from "../http/envelope";
import { notFound } from "../http/errors";
import { checkPinned, parseListParams } from "../http/params";
import type { Answer, CatalogContext } from "./answer";

/** The list page a query string asks for (400 when it asks for something invalid). */
function listPage(snapshot: Snapshot, query: string): Rendered {
  const params = new URLSearchParams(query);
  const p = parseListParams(params, snapshot.categoryIds);
  checkPinned(params, snapshot.snapshotAt);
  const page = snapshot.list({
    q: p.q,
    category: p.category,
    curated: p.curated,
    archived: p.archived,
    sort: p.sort,
    offset: (p.page - 1) * p.pageSize,
    limit: p.pageSize,
  });
  const rendered = render(okEnvelope(pageJson(page, p.page, p.pageSize, snapshot.snapshotAt)), JSON_TYPE, JSON_CACHE_CONTROL);
  // The list keeps its fields, so a corrected spelling is told in a header.
  if (page.corrected !== undefined) rendered.headers.set("X-Search-Corrected", encodeURIComponent(page.corrected));
  return rendered;
}

/** A former id's answer: a permanent redirect to the plugin's current address, as the platform does. */
function movedPage(id: string, current: string): Rendered {
  const [owner, repo] = current.split("/") as [string, string];
  const location = `/api/v1/plugins/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`;
  const body = JSON.stringify({ code: 301, message: `Plugin ${id} is now ${current}.`, data: null });
  const rendered = render(body, JSON_TYPE, JSON_CACHE_CONTROL, 301);
  rendered.headers.set("Location", location);
  return rendered;
}

/** One plugin in full form; a former id redirects (301), an unknown one is 404. */
function pluginPage(snapshot: Snapshot, id: string): Rendered {
  const plugin = snapshot.plugin(id);
  if (plugin === null) {
    const current = snapshot.currentId(id);
    if (current !== null) return movedPage(id, current);
    throw notFound(`Plugin ${id}`);
  }
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

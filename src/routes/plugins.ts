/** GET /api/v1/plugins and GET /api/v1/plugins/:owner/:repo (contract 4.1, 4.2). */
import { Elysia } from "elysia";
import type { Snapshot } from "../catalog/snapshot";
import type { CatalogStore } from "../catalog/store";
import { draft, JSON_CACHE_CONTROL, JSON_TYPE, type Draft } from "../http/cache";
import { okEnvelope, pageJson, rawQuery } from "../http/envelope";
import { notFound } from "../http/errors";
import { parseListParams } from "../http/params";
import { answer } from "./snapshot";

/** The list page a query string asks for (400 when it asks for something invalid). */
function listPage(snapshot: Snapshot, query: string): Draft {
  const p = parseListParams(new URLSearchParams(query), snapshot.categoryIds);
  const page = snapshot.list({
    q: p.q,
    category: p.category,
    curated: p.curated,
    sort: p.sort,
    offset: (p.page - 1) * p.pageSize,
    limit: p.pageSize,
  });
  return draft(okEnvelope(pageJson(page, p.page, p.pageSize, snapshot.snapshotAt)), JSON_TYPE, JSON_CACHE_CONTROL);
}

/** One plugin in full form (404 when the snapshot has no such id). */
function pluginPage(snapshot: Snapshot, id: string): Draft {
  const plugin = snapshot.plugin(id);
  if (plugin === null) throw notFound(`Plugin ${id}`);
  return draft(okEnvelope(`{"plugin":${plugin},"generatedAt":${JSON.stringify(snapshot.snapshotAt)}}`), JSON_TYPE, JSON_CACHE_CONTROL);
}

// Handlers return a 304 (null: its status and headers are in `set`) apart from other answers,
// which keeps them synchronous to Elysia: see snapshot.ts.
export function pluginRoutes(store: CatalogStore) {
  return new Elysia({ name: "routes.plugins" })
    .get("/api/v1/plugins", ({ request, set }) => {
      const query = rawQuery(request.url);
      const response = answer(store, request, set, `list?${query}`, listPage, query);
      if (response === null) return null;
      return response;
    })
    .get("/api/v1/plugins/:owner/:repo", ({ request, params, set }) => {
      const id = `${params.owner}/${params.repo}`;
      const response = answer(store, request, set, `plugin:${id}`, pluginPage, id);
      if (response === null) return null;
      return response;
    });
}

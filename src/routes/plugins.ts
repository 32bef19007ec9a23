/** GET /api/v1/plugins and GET /api/v1/plugins/:owner/:repo (contract 4.1, 4.2). */
import { Elysia } from "elysia";
import type { CatalogStore } from "../catalog/store";
import { draft, JSON_CACHE_CONTROL, JSON_TYPE, respond } from "../http/cache";
import { okEnvelope, pageJson, rawQuery } from "../http/envelope";
import { notFound } from "../http/errors";
import { parseListParams } from "../http/params";
import { noteCacheHit } from "../http/requestlog";
import { currentSnapshot } from "./snapshot";

export function pluginRoutes(store: CatalogStore) {
  return new Elysia({ name: "routes.plugins" })
    .get("/api/v1/plugins", ({ request, set }) => {
      const snapshot = currentSnapshot(store);
      const query = rawQuery(request.url);
      const { rendered, hit } = store.responses().get(`list?${query}`, () => {
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
      });
      noteCacheHit(request, hit);
      return respond(rendered, request, set);
    })
    .get("/api/v1/plugins/:owner/:repo", ({ request, params, set }) => {
      const snapshot = currentSnapshot(store);
      const id = `${params.owner}/${params.repo}`;
      const { rendered, hit } = store.responses().get(`plugin:${id}`, () => {
        const plugin = snapshot.plugin(id);
        if (plugin === null) throw notFound(`Plugin ${id}`);
        return draft(okEnvelope(`{"plugin":${plugin},"generatedAt":${JSON.stringify(snapshot.snapshotAt)}}`), JSON_TYPE, JSON_CACHE_CONTROL);
      });
      noteCacheHit(request, hit);
      return respond(rendered, request, set);
    });
}

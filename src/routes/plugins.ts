/** GET /api/v1/plugins and GET /api/v1/plugins/:owner/:repo (contract 4.1, 4.2). */
import { Type as t } from "@sinclair/typebox";
import type { Snapshot } from "../catalog/snapshot";
import { JSON_CACHE_CONTROL, JSON_TYPE, type Rendered, render } from "../http/cache";
import { okEnvelope, pageJson, rawQuery } from "../http/envelope";
import { notFound } from "../http/errors";
import type { RouteDoc } from "../http/openapi";
import { listQuerySchema, parseListParams } from "../http/params";
import { envelopeSchema, pageSchema, PluginSchema } from "../http/wireschemas";
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

const decoded = (rendered: Rendered) => JSON.parse(new TextDecoder().decode(rendered.body));

export const pluginDocs = {
  list: {
    tag: "API",
    summary: "Search, filter, sort and page the catalog",
    description: "Full-form plugins in the /api/v1 envelope. Unknown parameters are ignored; an empty value is absent.",
    query: (snapshot) => listQuerySchema(snapshot.categoryIds),
    body: envelopeSchema(pageSchema(PluginSchema, "One page of plugins.").properties),
    cached: "snapshot",
    example: (snapshot) => decoded(listPage(snapshot, "pageSize=1")),
  },
  plugin: {
    tag: "API",
    summary: "One plugin in full form",
    description: "`owner` and `repo` together form the plugin id.",
    params: t.Object({
      owner: t.String({ description: "Repository owner." }),
      repo: t.String({ description: "Repository name." }),
    }),
    body: envelopeSchema({ plugin: PluginSchema, generatedAt: pageSchema(PluginSchema, "").properties.generatedAt }),
    cached: "snapshot",
    more: {
      404: { description: "The catalog has no such plugin.", message: notFound("Plugin owner/repo").message },
    },
    example: (snapshot) => {
      const first = snapshot.list({ q: null, category: null, curated: false, sort: "stars", offset: 0, limit: 1 });
      const id = first.items[0] === undefined ? null : (JSON.parse(first.items[0]) as { id: string }).id;
      return id === null ? undefined : decoded(pluginPage(snapshot, id));
    },
  },
} satisfies Record<string, RouteDoc<Snapshot>>;

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

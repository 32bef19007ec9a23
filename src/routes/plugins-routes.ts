/** GET /api/v1/plugins and GET /api/v1/plugins/:owner/:repo. */
import { Type as t } from "@sinclair/typebox";
import type { IncludePart } from "../catalog/model/details";
import type { Snapshot } from "../catalog/snapshot/snapshot";
import type { Answer } from "../http/answer";
import { CACHE_CONTROL, decoded, JSON_TYPE, type Rendered, render } from "../http/cache";
import { okEnvelope, pageJson } from "../http/envelope";
import { notFound } from "../http/errors";
import {
  checkPinned,
  includeSchema,
  type ListParams,
  listQuerySchema,
  parseInclude,
  parseListParams,
} from "../http/list-params";
import { PINNED_CHANGED, type RouteDoc } from "../http/openapi";
import { envelopeSchema, PluginSchema, pageSchema } from "../http/wire-schemas";

/** The list parameters of a query (400 when invalid, 409 when pinned to another snapshot). */
function listParams(params: URLSearchParams, snapshot: Snapshot): ListParams {
  const p = parseListParams(params, snapshot.categoryIds);
  checkPinned(params, snapshot.snapshotAt);
  return p;
}

/** The list page of parsed parameters. */
function listPage(snapshot: Snapshot, p: ListParams): Rendered {
  const page = snapshot.list(p);
  const rendered = render(
    okEnvelope(pageJson(page, p.page, p.pageSize, snapshot.snapshotAt)),
    JSON_TYPE,
    CACHE_CONTROL,
  );
  // The list keeps its fields, so a corrected spelling is told in a header.
  if (page.corrected !== undefined) rendered.headers["X-Search-Corrected"] = encodeURIComponent(page.corrected);
  return rendered;
}

/** A former id's answer: a permanent redirect to the plugin's current address, as the platform does. */
function movedPage(id: string, current: string): Rendered {
  const [owner, repo] = current.split("/") as [string, string];
  const location = `/api/v1/plugins/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`;
  const body = JSON.stringify({ code: 301, message: `Plugin ${id} is now ${current}.`, data: null });
  const rendered = render(body, JSON_TYPE, CACHE_CONTROL, 301);
  rendered.headers.Location = location;
  return rendered;
}

/** One plugin in full form; a former id redirects (301), an unknown one is 404. */
function pluginPage(snapshot: Snapshot, { id, include }: { id: string; include: IncludePart[] }): Rendered {
  const plugin = snapshot.plugin(id, include);
  if (plugin === null) {
    const current = snapshot.currentId(id);
    if (current !== null) return movedPage(id, current);
    throw notFound(`Plugin ${id}`);
  }
  const data = `{"plugin":${plugin},"generatedAt":${JSON.stringify(snapshot.snapshotAt)}}`;
  return render(okEnvelope(data), JSON_TYPE, CACHE_CONTROL);
}

export const pluginDocs = {
  list: {
    tag: "API",
    summary: "Search, filter, sort and page the catalog",
    description:
      "Full-form plugins in the /api/v1 envelope. Unknown parameters are ignored; an empty value is absent. " +
      "When `q` matches nothing and a nearby spelling does, the response answers that spelling and names it " +
      "in the `X-Search-Corrected` header (URI-encoded).",
    query: (snapshot) => listQuerySchema(snapshot.categoryIds),
    body: envelopeSchema(pageSchema(PluginSchema, "One page of plugins.").properties),
    cached: "snapshot",
    headers: { "X-Search-Corrected": "The spelling searched instead of `q`'s (URI-encoded), when `q` was corrected." },
    more: { 409: PINNED_CHANGED },
    example: (snapshot) => decoded(listPage(snapshot, listParams(new URLSearchParams("pageSize=1"), snapshot))),
  },
  plugin: {
    tag: "API",
    summary: "One plugin in full form",
    description: "`owner` and `repo` together form the plugin id.",
    params: t.Object({
      owner: t.String({ description: "Repository owner." }),
      repo: t.String({ description: "Repository name." }),
    }),
    query: () => t.Object(includeSchema),
    body: envelopeSchema({ plugin: PluginSchema, generatedAt: pageSchema(PluginSchema, "").properties.generatedAt }),
    cached: "snapshot",
    more: {
      301: {
        description: "A former id of a renamed plugin: `Location` is its current address.",
        message: "Plugin old-owner/old-repo is now owner/repo.",
        headers: { Location: "The plugin's current path, `/api/v1/plugins/{owner}/{repo}`." },
      },
      404: { description: "The catalog has no such plugin.", message: notFound("Plugin owner/repo").message },
    },
    example: (snapshot) => {
      const first = snapshot.byStars(0, 1).items[0];
      return first === undefined
        ? undefined
        : decoded(pluginPage(snapshot, { id: (JSON.parse(first) as { id: string }).id, include: [] }));
    },
  },
} satisfies Record<string, RouteDoc<Snapshot>>;

export function pluginHandlers(answer: Answer) {
  return {
    list: answer.route("list", listParams, listPage),
    // Only `include` changes the answer: other parameters and spellings share an entry.
    plugin: answer.route(
      "plugin",
      (query, _snapshot, { owner, repo }: { owner: string; repo: string }) => ({
        id: `${owner}/${repo}`,
        include: parseInclude(query),
      }),
      pluginPage,
    ),
  };
}

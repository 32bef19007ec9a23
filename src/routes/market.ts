/** GET /market/manifest.json and GET /market/v1/plugins (contract 4.4, 4.5): bare JSON, no envelope. */
import type { Static } from "@sinclair/typebox";
import type { Snapshot } from "../catalog/snapshot";
import { JSON_CACHE_CONTROL, JSON_TYPE, type Rendered, render } from "../http/cache";
import { pageJson } from "../http/envelope";
import { PINNED_CHANGED, type RouteDoc } from "../http/openapi";
import { checkPinned, type Paging, parsePaging, SYNC_PAGE_SIZE, syncQuerySchema } from "../http/params";
import { ManifestSchema, pageSchema, ShortPluginSchema } from "../http/wireschemas";
import type { Answer, CatalogContext } from "./answer";

export const SOURCE_ID = "plugin-catalog";

/** The source manifest, as its schema says. */
export type Manifest = Static<typeof ManifestSchema>;

export function manifest(snapshot: Snapshot, baseUrl: string): Manifest {
  const { total, curated, categories, totalStars } = snapshot.stats;
  return {
    name: "Plugin Catalog",
    id: SOURCE_ID,
    apiVersion: "v1",
    description:
      "A public, read-only catalog of plugins for coding-agent harnesses: MCP servers, CLIs, agent workflows, " +
      "skills and hooks.",
    baseUrl,
    stats: { total, curated, categories, totalStars },
    snapshotAt: snapshot.snapshotAt,
    endpoints: [
      {
        id: "manifest",
        method: "GET",
        url: `${baseUrl}/market/manifest.json`,
        description: "This manifest: the source, its statistics and endpoints.",
      },
      {
        id: "plugins",
        method: "GET",
        url: `${baseUrl}/market/v1/plugins`,
        description:
          "Every plugin in short form by stars descending; page with page and pageSize (1 to 100, default 50).",
      },
    ],
  };
}

function manifestPage(snapshot: Snapshot, baseUrl: string): Rendered {
  return render(JSON.stringify(manifest(snapshot, baseUrl)), JSON_TYPE, JSON_CACHE_CONTROL);
}

/** The paging of a sync page (400 for bad paging, 409 when pinned to another snapshot). */
function syncParams(params: URLSearchParams, snapshot: Snapshot): Paging {
  const paging = parsePaging(params, SYNC_PAGE_SIZE.fallback, SYNC_PAGE_SIZE.cap);
  checkPinned(params, snapshot.snapshotAt);
  return paging;
}

/** A page of the sync source, by stars descending. */
function syncPage(snapshot: Snapshot, { page, pageSize }: Paging): Rendered {
  const items = snapshot.byStars((page - 1) * pageSize, pageSize);
  return render(pageJson(items, page, pageSize, snapshot.snapshotAt), JSON_TYPE, JSON_CACHE_CONTROL);
}

export const marketDocs = {
  manifest: {
    tag: "Client sync",
    summary: "The source manifest",
    description: "Bare JSON, no envelope: the source, its statistics and its endpoints. Clients read it first.",
    body: ManifestSchema,
    cached: "snapshot",
    example: (snapshot, baseUrl) => manifest(snapshot, baseUrl),
  },
  plugins: {
    tag: "Client sync",
    summary: "Every plugin in short form, by stars descending",
    description: "Bare JSON, no envelope; no search or filters. A client pages until it has `total` items.",
    query: syncQuerySchema,
    body: pageSchema(ShortPluginSchema, "One page of plugins in short form."),
    cached: "snapshot",
    more: { 409: PINNED_CHANGED },
    example: (snapshot) =>
      JSON.parse(
        new TextDecoder().decode(syncPage(snapshot, syncParams(new URLSearchParams("pageSize=1"), snapshot)).body),
      ),
  },
} satisfies Record<string, RouteDoc<Snapshot>>;

// The 304 (null) is returned apart, which keeps the handlers synchronous: see answer.ts.
export function marketHandlers(answer: Answer, baseUrl: string) {
  return {
    manifest: ({ request, set, note }: CatalogContext) => {
      const response = answer({ request, set, note }, "manifest", manifestPage, baseUrl);
      if (response === null) return null;
      return response;
    },
    plugins: ({ request, set, note }: CatalogContext) => {
      const response = answer.query({ request, set, note }, "sync", syncParams, syncPage);
      if (response === null) return null;
      return response;
    },
  };
}

/**
 * GET /market/v1/catalog.json and GET /market/v1/changes: a client mirrors the whole snapshot in
 * one response, then follows it with what changed since the snapshot it holds. Bare JSON, as the
 * other /market endpoints.
 */
import type { Snapshot } from "../catalog/snapshot";
import type { CatalogStore } from "../catalog/store";
import { acceptsGzip, JSON_CACHE_CONTROL, JSON_TYPE, type Rendered, render, respond } from "../http/cache";
import { badRequest, HttpError, unavailable } from "../http/errors";
import type { RouteDoc } from "../http/openapi";
import { parseSnapshotAt, sinceQuerySchema } from "../http/params";
import { gzipped } from "../http/render";
import { CatalogSchema, ChangesSchema } from "../http/wireschemas";
import type { Answer, CatalogContext } from "./answer";

/** The categories with their plugin counts, as the list endpoint's `category` filter counts them. */
export function categoriesJson(snapshot: Snapshot, counts: ReadonlyMap<string, number>): string {
  return JSON.stringify(snapshot.categories.map((c) => ({ ...c, count: counts.get(c.id) ?? 0 })));
}

/** The whole snapshot: every plugin in catalog form, by stars desc. */
export function renderCatalog(snapshot: Snapshot): Rendered {
  const counts = snapshot.categoryCounts({ q: null, curated: false, archived: null });
  const head = `"snapshotAt":${JSON.stringify(snapshot.snapshotAt)},"total":${snapshot.stats.total}`;
  const body = `{${head},"categories":${categoriesJson(snapshot, counts)},"items":[${snapshot.catalogItems().join(",")}]}`;
  return render(body, JSON_TYPE, JSON_CACHE_CONTROL);
}

const sinceMissing = () => badRequest("since", "required: the snapshotAt of the catalog you hold");

/** The catalog's history does not reach `since`: the client starts again from catalog.json. */
function historyGone(since: string): HttpError {
  const restart = "download /market/v1/catalog.json and follow changes from its snapshotAt";
  return new HttpError(410, `The catalog's history does not reach ${since}: ${restart}.`);
}

/** The `since` of a changes request: required, a snapshotAt (400 otherwise). */
function changesParams(params: URLSearchParams): { since: string } {
  const since = parseSnapshotAt(params, "since");
  if (since === null) throw sinceMissing();
  return { since };
}

/** The changes from `since` to this snapshot; 410 when its history does not reach `since`. */
function changesPage(snapshot: Snapshot, { since }: { since: string }): Rendered {
  const changes = snapshot.changesSince(since);
  if (changes === null) {
    throw historyGone(since);
  }
  const lists = `"added":[${changes.added.join(",")}],"updated":[${changes.updated.join(",")}]`;
  const ids = `"removed":${JSON.stringify(changes.removed)},"renamed":${JSON.stringify(changes.renamed)}`;
  const body = `{"snapshotAt":${JSON.stringify(snapshot.snapshotAt)},"since":${JSON.stringify(since)},${lists},${ids}}`;
  return render(body, JSON_TYPE, JSON_CACHE_CONTROL);
}

/** Bun copies a byte array into every Response but shares a Blob's bytes: megabytes per request. */
function withBlob(rendered: Rendered): Rendered {
  rendered.blob = new Blob([rendered.body as Uint8Array<ArrayBuffer>]);
  return rendered;
}

/**
 * catalog.json of the snapshot being served, rendered and compressed once per snapshot and kept
 * beside the response cache, which a body of the whole catalog would overflow. Only the gzip form
 * stays in memory (a sixth of the plain one); a client that takes no gzip gets it decompressed.
 */
class CatalogDocument {
  private snapshot: Snapshot | null = null;
  private compressed: Rendered | null = null;
  private plain: Omit<Rendered, "body"> | null = null;

  get(snapshot: Snapshot, gzip: boolean): { rendered: Rendered; hit: boolean } {
    const hit = snapshot === this.snapshot;
    if (!hit || this.compressed === null || this.plain === null) {
      const { body, ...plain } = renderCatalog(snapshot);
      this.compressed = withBlob(gzipped({ body, ...plain }));
      this.plain = plain;
      this.snapshot = snapshot;
    }
    if (gzip) return { rendered: this.compressed, hit };
    return { rendered: { ...this.plain, body: Bun.gunzipSync(this.compressed.body as Uint8Array<ArrayBuffer>) }, hit };
  }
}

const decoded = (rendered: Rendered) => JSON.parse(new TextDecoder().decode(rendered.body));

export const syncDocs = {
  catalog: {
    tag: "Client sync",
    summary: "The whole catalog in one document",
    description:
      "Every plugin in catalog form by stars descending, with the categories: a mirror downloads it once, " +
      "then follows /market/v1/changes from its snapshotAt. The example shows one item.",
    body: CatalogSchema,
    cached: "snapshot",
    example: (snapshot) => {
      const whole = decoded(renderCatalog(snapshot));
      return { ...whole, items: whole.items.slice(0, 1) };
    },
  },
  changes: {
    tag: "Client sync",
    summary: "What changed since a snapshot",
    description:
      "Added and updated plugins in catalog form, removed ids and renames, from `since` to the snapshot served.",
    query: sinceQuerySchema,
    body: ChangesSchema,
    cached: "snapshot",
    more: {
      400: {
        description: "`since` is missing or not a snapshotAt.",
        message: sinceMissing().message,
      },
      410: {
        description: "The catalog's history does not reach `since`: download catalog.json again.",
        message: historyGone("2026-01-02T03:04:05.678Z").message,
      },
    },
    example: (snapshot) => decoded(changesPage(snapshot, { since: snapshot.snapshotAt })),
  },
} satisfies Record<string, RouteDoc<Snapshot>>;

// The 304 (null) is returned apart, which keeps the handlers synchronous: see answer.ts.
export function syncHandlers(answer: Answer, store: CatalogStore) {
  const document = new CatalogDocument();
  return {
    catalog: ({ request, set, note }: CatalogContext) => {
      const snapshot = store.current();
      if (snapshot === null) throw unavailable();
      const { rendered, hit } = document.get(snapshot, acceptsGzip(request.headers.get("accept-encoding")));
      note.cache = hit ? "hit" : "miss";
      const response = respond(rendered, request, set, note.limit);
      if (response === null) return null;
      return response;
    },
    changes: ({ request, set, note }: CatalogContext) => {
      const response = answer.query({ request, set, note }, "changes", changesParams, changesPage);
      if (response === null) return null;
      return response;
    },
  };
}

/**
 * The client-sync source, bare JSON without the envelope: GET /market/manifest.json (the source),
 * GET /market/v1/plugins (pages by stars), GET /market/v1/catalog.json (the whole snapshot in one
 * document) and GET /market/v1/changes (what changed since the snapshot a client holds).
 */
import type { Static } from "@sinclair/typebox";
import type { Log } from "../base/log";
import type { Snapshot } from "../catalog/snapshot/snapshot";
import type { CatalogStore } from "../catalog/snapshot/store";
import { type Answer, type CatalogContext, canonicalParams } from "../http/answer";
import {
  acceptsGzip,
  CACHE_CONTROL,
  decoded,
  JSON_TYPE,
  matchesEtag,
  type Rendered,
  render,
  respond,
} from "../http/cache";
import { pageJson } from "../http/envelope";
import { badRequest, HttpError, unavailable } from "../http/errors";
import {
  checkPinned,
  type Paging,
  parsePaging,
  parseSnapshotAt,
  SYNC_PAGING,
  sinceQuerySchema,
  syncQuerySchema,
} from "../http/list-params";
import { PINNED_CHANGED, type RouteDoc } from "../http/openapi";
import { bodyHeaders, gzipEtag, MIN_GZIP_BYTES } from "../http/render";
import { rawQuery } from "../http/url";
import { CatalogSchema, ChangesSchema, ManifestSchema, pageSchema, ShortPluginSchema } from "../http/wire-schemas";
import { type PartsDocument, PreparedDocuments, SnapshotClosed, SyncDocuments } from "./documents";
import { managedSettingsHandlers } from "./managed-settings-routes";
import { requestedRange } from "./range";

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
      ...(snapshot.underPolicy() ? managedEndpoints(baseUrl) : []),
    ],
  };
}

/** The managed-settings documents, listed only by a catalog built under a policy. */
function managedEndpoints(baseUrl: string): Manifest["endpoints"] {
  return [
    {
      id: "claude-managed-settings",
      method: "GET",
      url: `${baseUrl}/market/claude/managed-settings.json`,
      description: "Claude Code managed settings: only this catalog's marketplaces and the MCP servers it admits.",
    },
    {
      id: "vscode-settings",
      method: "GET",
      url: `${baseUrl}/market/vscode/settings.json`,
      description: "VS Code settings: this catalog as its MCP registry, and only the registry's servers.",
    },
  ];
}

function manifestPage(snapshot: Snapshot, baseUrl: string): Rendered {
  return render(JSON.stringify(manifest(snapshot, baseUrl)), JSON_TYPE, CACHE_CONTROL);
}

/** The paging of a sync page (400 for bad paging, 409 when pinned to another snapshot). */
function syncParams(params: URLSearchParams, snapshot: Snapshot): Paging {
  const paging = parsePaging(params, SYNC_PAGING);
  checkPinned(params, snapshot.snapshotAt);
  return paging;
}

/** A page of the sync source, by stars descending. */
function syncPage(snapshot: Snapshot, { page, pageSize }: Paging): Rendered {
  const items = snapshot.byStars((page - 1) * pageSize, pageSize);
  return render(pageJson(items, page, pageSize, snapshot.snapshotAt), JSON_TYPE, CACHE_CONTROL);
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
    example: (snapshot) => decoded(syncPage(snapshot, syncParams(new URLSearchParams("pageSize=1"), snapshot))),
  },

  catalog: {
    tag: "Client sync",
    summary: "The whole catalog in one document",
    description:
      "Every plugin in catalog form by stars descending, with the categories: a mirror downloads it once, " +
      "then follows /market/v1/changes from its snapshotAt. The example shows one item.",
    body: CatalogSchema,
    cached: "snapshot",
    headers: { "Accept-Ranges": "`bytes`: one byte range of either representation may be asked for (`Range`)." },
    more: {
      206: {
        description: "The one byte range `Range` asked for (unless `If-Range` names another version): resume here.",
        partial: true,
        headers: { "Content-Range": "`bytes first-last/length` of the representation sent (plain or gzip)." },
      },
      416: {
        description: "The range starts past the end.",
        message: "The range is not within the 1234 bytes of this representation.",
        headers: { "Content-Range": "`bytes */length`." },
      },
    },
    example: (snapshot) => JSON.parse(SyncDocuments.catalogExample(snapshot)),
  },
  changes: {
    tag: "Client sync",
    summary: "What changed since a snapshot",
    description:
      "Added and updated plugins in catalog form, each with `last_update` (what its last update changed), removed " +
      "ids and renames, from `since` to the snapshot served.",
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
    example: (snapshot) => JSON.parse(SyncDocuments.unchanged(snapshot.snapshotAt)),
  },
} satisfies Record<string, RouteDoc<Snapshot>>;

/** Serves a document of parts: 304 on a current ETag, HEAD without its body, a byte range when `ranges`. */
function serveParts(
  { request, set, note }: CatalogContext,
  document: PartsDocument,
  ranges: boolean,
  cacheControl: string,
): Response | null {
  const gzip = document.body.plainLength >= MIN_GZIP_BYTES && acceptsGzip(request.headers.get("accept-encoding"));
  const etag = gzip ? gzipEtag(document.etag) : document.etag;
  const headers = bodyHeaders(JSON_TYPE, cacheControl, etag, document.body.plainLength);
  if (gzip) headers["Content-Encoding"] = "gzip";
  if (ranges) headers["Accept-Ranges"] = "bytes";
  if (matchesEtag(request.headers.get("if-none-match"), etag)) {
    return respond({ status: 200, body: EMPTY, etag, headers }, request, set, note.limit);
  }
  const length = document.body.length(gzip);
  const range = ranges
    ? requestedRange(request.headers.get("range"), request.headers.get("if-range"), etag, length)
    : null;
  if (range === "unsatisfiable") {
    throw new HttpError(416, `The range is not within the ${length} bytes of this representation.`, {
      "Content-Range": `bytes */${length}`,
    });
  }
  const { start, end } = range ?? { start: 0, end: length };
  if (range !== null) headers["Content-Range"] = `bytes ${start}-${end - 1}/${length}`;
  // A streamed body goes chunked (see file-body.ts); HEAD, a file and a whole body say the length.
  headers["Content-Length"] = String(end - start);
  Object.assign(headers, note.limit);
  const status = range === null ? 200 : 206;
  // A HEAD answer never makes its body.
  if (request.method === "HEAD") return new Response(null, { status, headers });
  return new Response(document.body.body(gzip, start, end, request.signal), { status, headers });
}

const EMPTY = new Uint8Array(0);

export function marketHandlers(answer: Answer, store: CatalogStore, baseUrl: string, log: Log = () => {}) {
  const prepared = PreparedDocuments.following(store, log);
  const cacheControl = answer.shared(CACHE_CONTROL);
  /** The documents of the snapshot served; one written meanwhile is awaited, one closed meanwhile asked again. */
  const documents = async (note: CatalogContext["note"], attempts = 3): Promise<SyncDocuments> => {
    const snapshot = store.current();
    if (snapshot === null) throw unavailable();
    const found = prepared.get(snapshot);
    note.cache = found instanceof SyncDocuments ? "hit" : "miss";
    try {
      return await found;
    } catch (error) {
      if (error instanceof SnapshotClosed && attempts > 1) return documents(note, attempts - 1);
      throw error;
    }
  };
  const { claude: claudeSettings, vscode: vscodeSettings } = managedSettingsHandlers(answer, baseUrl);
  return {
    claudeSettings,
    vscodeSettings,
    manifest: answer.route(
      "manifest",
      () => undefined,
      (snapshot) => manifestPage(snapshot, baseUrl),
    ),
    plugins: answer.route("sync", syncParams, syncPage),
    // Async: documents whose writing began late (a snapshot opened before `following`) or failed are awaited.
    catalog: async (context: CatalogContext) =>
      serveParts(context, (await documents(context.note)).catalog, true, cacheControl),
    changes: async (context: CatalogContext) => {
      const params = changesParams(new URLSearchParams(rawQuery(context.request.url)));
      context.note.params = canonicalParams(params);
      const written = await documents(context.note);
      // A hit is an answer assembled before; the first request of a `since` assembles it.
      if (!written.hasChanges(params.since)) context.note.cache = "miss";
      const changes = written.changes(params.since);
      if (changes === null) throw historyGone(params.since);
      return serveParts(context, changes, false, cacheControl);
    },
  };
}

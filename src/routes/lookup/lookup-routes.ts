/**
 * GET /api/v1/lookup?ids=a/b,c/d&since=… and POST /api/v1/lookup `{"ids": [...], "since": "…"}`:
 * a client checks every plugin it holds for updates in one request (lookup-answer.ts). A GET is cached
 * per snapshot like the other answers; a POST's body is read within a small bound and answered the
 * same way: cached per snapshot by its ids and `since`, rendered at its turn (src/http/turns.ts) on
 * a miss, sent with `Cache-Control: no-store`. Malformed input is a 400; an id the catalog does not know is reported.
 */
import { Type as t } from "@sinclair/typebox";
import { isPlatformName, REPO_ID_PATTERN, repoIdListPattern } from "../../catalog/model/names";
import { LastUpdateSchema } from "../../catalog/model/update-diff";
import type { Snapshot } from "../../catalog/snapshot/snapshot";
import type { Answer, CatalogContext } from "../../http/answer";
import { CACHE_CONTROL, decoded, JSON_TYPE, type Rendered, render } from "../../http/cache";
import { okEnvelope } from "../../http/envelope";
import { badRequest, HttpError, unavailable } from "../../http/errors";
import { parseSnapshotAt, SINCE } from "../../http/list-params";
import type { RouteDoc } from "../../http/openapi";
import { described } from "../../http/param-parser";
import { envelopeSchema, stringEnum } from "../../http/wire-schemas";
import { lookupData, MAX_LOOKUP_IDS } from "./lookup-answer";

/** Bytes of a POST body read at most: 100 of the longest ids and a `since`, with room to spare. */
export const MAX_LOOKUP_BODY = 32 * 1024;

interface LookupArgs {
  ids: string[];
  since: string | null;
}

/** The ids and `since` of a lookup, checked: 1 to 100 ids, each `owner/repo` as the platform allows. */
function checked(ids: readonly unknown[], since: string | null): LookupArgs {
  if (ids.length === 0) throw badRequest("ids", "one or more `owner/repo` ids, comma-separated");
  if (ids.length > MAX_LOOKUP_IDS) throw badRequest("ids", `at most ${MAX_LOOKUP_IDS} ids (${ids.length} given)`);
  for (const id of ids) {
    if (typeof id !== "string" || !isPlatformName(id)) {
      const shown = typeof id === "string" ? id.slice(0, 200) : typeof id;
      throw badRequest("ids", `"${shown}" is not an \`owner/repo\` id`);
    }
  }
  return { ids: ids as string[], since };
}

function parseGet(query: URLSearchParams): LookupArgs {
  const values = query.getAll("ids");
  if (values.length > 1) throw badRequest("ids", "give it at most once, comma-separated");
  const ids = (values[0] ?? "")
    .split(",")
    .map((id) => id.trim())
    .filter((id) => id !== "");
  return checked(ids, parseSnapshotAt(query, "since"));
}

/** A POST body: JSON `{ids: string[], since?: string}` within MAX_LOOKUP_BODY bytes. */
async function parsePost(request: Request): Promise<LookupArgs> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_LOOKUP_BODY) throw new HttpError(413, `The body is longer than ${MAX_LOOKUP_BODY} bytes.`);
  const bytes = new Uint8Array(await request.arrayBuffer());
  if (bytes.byteLength > MAX_LOOKUP_BODY) throw new HttpError(413, `The body is longer than ${MAX_LOOKUP_BODY} bytes.`);
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    throw new HttpError(400, 'The body is not JSON: send {"ids": ["owner/repo", …], "since": "…"}.');
  }
  if (typeof body !== "object" || body === null || !Array.isArray((body as { ids?: unknown }).ids)) {
    throw badRequest("ids", "an array of `owner/repo` ids in the JSON body");
  }
  const { ids, since } = body as { ids: unknown[]; since?: unknown };
  if (since !== undefined && since !== null && typeof since !== "string") throw badRequest("since", "a snapshotAt");
  const sinceText = typeof since === "string" ? parseSnapshotAt(new URLSearchParams({ since }), "since") : null;
  return checked(ids, sinceText);
}

function lookupPage(snapshot: Snapshot, { ids, since }: LookupArgs): Rendered {
  return render(okEnvelope(lookupData(snapshot, ids, since)), JSON_TYPE, CACHE_CONTROL);
}

const nullable = <T extends Parameters<typeof t.Union>[0][number]>(schema: T, description: string) =>
  t.Union([schema, t.Null()], { description });
const time = t.String({ format: "date-time" });

const LookupItemSchema = t.Object(
  {
    id: t.String({ description: "The id as asked." }),
    status: stringEnum(["listed", "removed", "rejected", "unknown"], {
      description:
        "`listed` (under this id or, after a rename, `current_id`), `removed` from the catalog, `rejected` by " +
        "the last refresh that met it, or `unknown` to the catalog.",
    }),
    current_id: nullable(t.String(), "The id it is listed under now (after renames); null unless listed."),
    renamed: t.Boolean({ description: "Whether the id asked is a former id of the plugin." }),
    pushed_at: nullable(time, "Last push; null unless listed."),
    latest_release: nullable(
      t.Object({ tag: t.String(), date: t.String() }, { additionalProperties: false }),
      "The latest release's tag and time; null when none (or not listed).",
    ),
    deprecated: nullable(t.Boolean(), 'server.json says `"status": "deprecated"`; null unless listed.'),
    archived: nullable(t.Boolean(), "The repository is archived; null unless listed."),
    removed_at: nullable(time, "When the catalog removed it; null unless removed."),
    changed: nullable(
      t.Boolean(),
      "Whether its catalog entry changed (or it was removed) after `since`; null without `since` or when the " +
        "catalog's history does not reach it.",
    ),
    last_update: t.Union([LastUpdateSchema, t.Null()], {
      description:
        "What its last update changed (components, install lines and packages, new risk notes, the context cost, " +
        "a content change without a version bump), or `new` when first seen; null when none was seen, or not listed.",
    }),
  },
  { additionalProperties: false },
);

export const LookupSchema = envelopeSchema({
  items: t.Array(LookupItemSchema, { description: "One per id asked, in the order asked." }),
  unknown: t.Array(t.String(), { description: "The ids asked that the catalog does not know." }),
  since: nullable(time, "The `since` asked, or null."),
  generatedAt: time,
});

export const lookupDoc = {
  tag: "Plugins",
  summary: "Update checks for up to 100 plugins in one request",
  description:
    `Up to ${MAX_LOOKUP_IDS} \`owner/repo\` ids (\`ids\`, comma-separated; or POST \`{"ids": [...], "since": "..."}\` ` +
    "as JSON): for each, its current id after renames, last push, latest release, deprecated, " +
    "archived or removed, whether it changed after `since` (the snapshotAt the client read), and what its last " +
    "update changed (`last_update`: components, install lines, packages, new risk notes, context cost). Unknown ids " +
    "are reported in `unknown`; a malformed id, more than 100 ids or a body that is not JSON is a 400.",
  query: t.Object({
    ids: t.String({
      pattern: repoIdListPattern(MAX_LOOKUP_IDS),
      description: `1 to ${MAX_LOOKUP_IDS} \`owner/repo\` ids, comma-separated.`,
      examples: ["modelcontextprotocol/servers,example/unknown"],
    }),
    since: t.Optional(described(SINCE, "The snapshotAt of the catalog the client read.").schema),
  }),
  body: LookupSchema,
  cached: "snapshot",
  post: {
    summary: "Update checks for up to 100 plugins, the ids in a JSON body",
    description:
      "The same answer as GET for ids sent as JSON (`ids`, and `since` optionally), for a client whose list " +
      "is too long for a URL; not for caches on the way (`Cache-Control: no-store`). The server keeps the answer " +
      "to one body (its ids and `since`, however spelled) per snapshot and renders a new one at its turn, like " +
      "every costly answer: past the rendering queue's bound it is a 503 with `Retry-After`. " +
      `A body over ${MAX_LOOKUP_BODY} bytes is a 413.`,
    request: t.Object(
      {
        ids: t.Array(t.String({ pattern: REPO_ID_PATTERN }), {
          minItems: 1,
          maxItems: MAX_LOOKUP_IDS,
          description: `1 to ${MAX_LOOKUP_IDS} \`owner/repo\` ids.`,
        }),
        since: t.Optional(nullable(time, "The snapshotAt of the catalog the client read.")),
      },
      { examples: [{ ids: ["modelcontextprotocol/servers", "example/unknown"], since: "2026-08-22T00:00:00.000Z" }] },
    ),
    more: {
      413: {
        description: `The body is longer than ${MAX_LOOKUP_BODY} bytes.`,
        message: `The body is longer than ${MAX_LOOKUP_BODY} bytes.`,
      },
      503: {
        description: "No snapshot is loaded yet, or the rendering queue is full.",
        message: unavailable().message,
        headers: { "Retry-After": "Seconds to wait." },
      },
    },
  },
  example: (snapshot: Snapshot) => {
    const first = JSON.parse(snapshot.byStars(0, 1).items[0] ?? '{"id":"example/none"}') as { id: string };
    return decoded(lookupPage(snapshot, { ids: [first.id, "example/unknown"], since: snapshot.snapshotAt }));
  },
} satisfies RouteDoc<Snapshot>;

/** A POST's answer: the GET's, never kept by a cache on the way (`no-store`). */
function postedPage(snapshot: Snapshot, args: LookupArgs): Rendered {
  const rendered = lookupPage(snapshot, args);
  rendered.headers["Cache-Control"] = "no-store";
  return rendered;
}

export function lookupHandlers(answer: Answer) {
  const posted = answer.posted("lookup", postedPage);
  return {
    lookup: answer.route("lookup", parseGet, lookupPage),
    /**
     * POST: the body read and checked first, then answered like a GET: from the serving snapshot's
     * cache by the body's ids and `since`, rendered at its turn on a miss.
     */
    post: async (context: CatalogContext): Promise<Response | null> =>
      posted(await parsePost(context.request), context),
  };
}

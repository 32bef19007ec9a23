/**
 * GET /api/v1/suggest?q=: the typeahead. Up to 10 plugins whose name, owner or full name starts
 * with `q`, most popular first, from an index built once per snapshot (catalog/suggest.ts).
 */
import { Type as t } from "@sinclair/typebox";
import type { Snapshot } from "../catalog/snapshot";
import { SUGGEST_LIMIT, SuggestIndex } from "../catalog/suggest";
import { JSON_CACHE_CONTROL, JSON_TYPE, type Rendered, render } from "../http/cache";
import { okEnvelope, rawQuery } from "../http/envelope";
import { badRequest } from "../http/errors";
import { memoized } from "../http/memo";
import type { RouteDoc } from "../http/openapi";
import { MAX_QUERY_CHARS } from "../http/params";
import { envelopeSchema, PluginSchema } from "../http/wireschemas";
import type { Answer, CatalogContext } from "./answer";

/** The suggest group's limit: a burst of this many requests, then one more per interval. */
export const SUGGEST_RULE = { burst: 5, intervalMs: 250 } as const;

const indexes = new WeakMap<Snapshot, SuggestIndex>();

/** The snapshot's typeahead index, built on first use (the store builds it when it opens a snapshot). */
export function suggestIndex(snapshot: Snapshot): SuggestIndex {
  let index = indexes.get(snapshot);
  if (index === undefined) {
    index = new SuggestIndex(snapshot.suggestKeys());
    indexes.set(snapshot, index);
  }
  return index;
}

/** The canonical prefix of a query string: `q` trimmed and lower-cased; 400 when malformed. */
export const suggestPrefix = memoized((query: string): string => {
  const values = new URLSearchParams(query).getAll("q");
  if (values.length > 1) throw badRequest("q", "give it at most once");
  const q = (values[0] ?? "").trim().toLowerCase();
  if ([...q].length > MAX_QUERY_CHARS) throw badRequest("q", `at most ${MAX_QUERY_CHARS} characters`);
  return q;
});

function suggestPage(snapshot: Snapshot, prefix: string): Rendered {
  const items = suggestIndex(snapshot)
    .lookup(prefix)
    .map((rowid) => snapshot.suggestItem(rowid));
  const data = `{"items":[${items.join(",")}],"generatedAt":${JSON.stringify(snapshot.snapshotAt)}}`;
  return render(okEnvelope(data), JSON_TYPE, JSON_CACHE_CONTROL);
}

export const SuggestionSchema = t.Object(
  {
    id: PluginSchema.properties.id,
    name: PluginSchema.properties.name,
    description: PluginSchema.properties.description,
    stars: PluginSchema.properties.stars,
  },
  { additionalProperties: false, description: "A suggested plugin." },
);

export const suggestDoc: RouteDoc<Snapshot> = {
  tag: "API",
  summary: "Typeahead: plugins whose name, owner or full name starts with q",
  description:
    `Up to ${SUGGEST_LIMIT} plugins whose name, owner or full name (\`owner/repo\`) starts with \`q\` (case aside), ` +
    "most popular first (the search's popularity), each with id, name, description and stars. An empty `q` " +
    `gives no items. Its own rate-limit group, sized for typing: a burst of ${SUGGEST_RULE.burst} requests, ` +
    `then one per ${SUGGEST_RULE.intervalMs} ms, per client.`,
  query: t.Object({
    q: t.Optional(
      t.String({ maxLength: MAX_QUERY_CHARS, description: "The prefix typed so far; trimmed, case aside." }),
    ),
  }),
  body: envelopeSchema({
    items: t.Array(SuggestionSchema, { maxItems: SUGGEST_LIMIT }),
    generatedAt: t.String({ format: "date-time", description: "Time of the snapshot that served the response." }),
  }),
  cached: "snapshot",
  example: (snapshot) => JSON.parse(new TextDecoder().decode(suggestPage(snapshot, "mcp").body)),
};

// The 304 (null) is returned apart, which keeps the handler synchronous: see answer.ts.
export function suggestHandlers(answer: Answer) {
  return {
    suggest: ({ request, set, note }: CatalogContext) => {
      const prefix = suggestPrefix(rawQuery(request.url));
      const response = answer({ request, set, note }, `suggest:${prefix}`, suggestPage, prefix);
      if (response === null) return null;
      return response;
    },
  };
}

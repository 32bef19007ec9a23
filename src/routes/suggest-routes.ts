/**
 * GET /api/v1/suggest?q=: the typeahead. Up to 10 plugins whose name, owner or full name starts
 * with `q`, most popular first, from the index the snapshot's build wrote (catalog/snapshot/build.ts): a bounded lookup.
 */
import { Type as t } from "@sinclair/typebox";
import { SUGGEST_LIMIT } from "../catalog/search/typeahead";
import type { Snapshot } from "../catalog/snapshot/snapshot";
import type { Answer } from "../http/answer";
import { CACHE_CONTROL, decoded, JSON_TYPE, type Rendered, render } from "../http/cache";
import { okEnvelope } from "../http/envelope";
import { MAX_QUERY_CHARS } from "../http/list-params";
import type { RouteDoc } from "../http/openapi";
import { text } from "../http/param-parser";
import { envelopeSchema, PluginSchema } from "../http/wire-schemas";

/** The suggest group's limit: a burst of this many requests, then one more per interval. */
export const SUGGEST_RULE = { burst: 5, intervalMs: 250 } as const;

const PREFIX = text("q", { maxLength: MAX_QUERY_CHARS, description: "The prefix typed so far; trimmed, case aside." });

/** The canonical prefix of a query: `q` trimmed and lower-cased; 400 when malformed. */
function suggestPrefix(query: URLSearchParams): string {
  return (PREFIX.read(query) ?? "").toLowerCase();
}

function suggestPage(snapshot: Snapshot, prefix: string): Rendered {
  const items = snapshot.suggest(prefix).map((rowid) => snapshot.suggestItem(rowid));
  const data = `{"items":[${items.join(",")}],"generatedAt":${JSON.stringify(snapshot.snapshotAt)}}`;
  return render(okEnvelope(data), JSON_TYPE, CACHE_CONTROL);
}

const SuggestionSchema = t.Object(
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
    q: t.Optional(PREFIX.schema),
  }),
  body: envelopeSchema({
    items: t.Array(SuggestionSchema, { maxItems: SUGGEST_LIMIT }),
    generatedAt: t.String({ format: "date-time", description: "Time of the snapshot that served the response." }),
  }),
  cached: "snapshot",
  example: (snapshot) => decoded(suggestPage(snapshot, "mcp")),
};

export function suggestHandlers(answer: Answer) {
  return { suggest: answer.route("suggest", suggestPrefix, suggestPage) };
}

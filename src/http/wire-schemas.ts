/**
 * The bodies the service sends, as TypeBox schemas (Elysia's `t`): the OpenAPI document is made
 * from them and the tests check every response against them, so neither can drift from the wire.
 * A plugin's forms come from the catalog (src/catalog/wire.ts), where its types are derived.
 */
import { Type as t } from "@sinclair/typebox";
import { LastUpdateSchema } from "../catalog/model/update-diff";
import { CatalogPluginSchema, closed, count, stringEnum, timestamp } from "../catalog/model/wire";

export { PluginSchema, ShortPluginSchema, stringEnum } from "../catalog/model/wire";

export const CategorySchema = closed(
  {
    id: t.String(),
    name: t.String(),
    name_zh: t.String({ description: "Chinese name." }),
    description: t.String(),
    count: t.Integer({ minimum: 0, description: "Plugins in it (within the filters, where given)." }),
  },
  "A category with its plugin count.",
);

const generatedAt = timestamp("Time of the snapshot that served the response, UTC, millisecond precision.");

/** The paging object of a list: the page's items and where it stands. */
export function pageSchema<T extends Parameters<typeof t.Array>[0]>(item: T, description: string) {
  return closed(
    {
      items: t.Array(item, { description: "The current page." }),
      total: count("Matching plugins over all pages."),
      page: t.Integer({ minimum: 1, description: "Page number served." }),
      pageSize: t.Integer({ minimum: 1, description: "Page size applied (after the cap)." }),
      generatedAt,
    },
    description,
  );
}

/** `{code: 0, message: "ok", data}`: the success envelope of /api/v1. */
export function envelopeSchema<T extends Parameters<typeof t.Object>[0]>(data: T) {
  return closed({ code: t.Literal(0), message: t.Literal("ok"), data: closed(data) }, "The /api/v1 success envelope.");
}

export const ManifestSchema = closed(
  {
    name: t.String(),
    id: t.String({ description: "Source identifier." }),
    apiVersion: t.Literal("v1"),
    description: t.String(),
    baseUrl: t.String({ format: "uri", description: "Absolute base address of the service." }),
    stats: closed({
      total: count("Plugins in the catalog."),
      curated: count("Editor-curated plugins."),
      categories: count("Categories."),
      totalStars: count("Stars over all plugins."),
    }),
    snapshotAt: timestamp("Time of the catalog snapshot, UTC, millisecond precision."),
    endpoints: t.Array(
      closed({
        id: t.String(),
        method: t.Literal("GET"),
        url: t.String({ format: "uri" }),
        description: t.String(),
      }),
    ),
  },
  "The source manifest: what a sync client reads first.",
);

/** An item of catalog.json and `changes`: the catalog form and what the plugin's last update changed. */
const ChangedPluginSchema = closed(
  {
    ...CatalogPluginSchema.properties,
    last_update: t.Union([LastUpdateSchema, t.Null()], {
      description:
        "What the plugin's last update changed, kept until the next one: components added and removed, install " +
        "lines and packages, new risk notes, the context cost, and whether the content changed without a version " +
        "bump; `new` when first seen. Null when no update was seen.",
    }),
  },
  "A plugin in catalog form with its last update.",
);

export const CatalogSchema = closed(
  {
    snapshotAt: timestamp("Time of the catalog snapshot, UTC, millisecond precision."),
    total: count("Plugins in the catalog."),
    categories: t.Array(CategorySchema),
    items: t.Array(ChangedPluginSchema, { description: "Every plugin, by stars descending." }),
  },
  "The whole snapshot in one document.",
);

export const ChangesSchema = closed(
  {
    snapshotAt: timestamp("The snapshot the changes lead to."),
    since: timestamp("The snapshot they start from."),
    added: t.Array(ChangedPluginSchema),
    updated: t.Array(ChangedPluginSchema),
    removed: t.Array(t.String(), { description: "Ids no longer in the catalog." }),
    renamed: t.Array(closed({ from: t.String(), to: t.String() })),
  },
  "What changed from `since` to the snapshot served.",
);

/** An error of the MCP registry API (/v0.1), in the shape that API's document gives. */
export const RegistryErrorSchema = closed(
  { error: t.String({ description: "The problem in one sentence." }) },
  "An error of the MCP registry API: `{error}`.",
);

export const ErrorSchema = t.Object(
  {
    code: t.Integer({ minimum: 300, maximum: 599, description: "The HTTP status." }),
    message: t.String({ description: "The problem in one sentence (for 400: the parameter and what is allowed)." }),
    data: t.Optional(t.Null({ description: "Present, null, under /api/v1 only." })),
  },
  {
    additionalProperties: false,
    description: "An error (or a redirect): `{code, message}`, with `data: null` under /api/v1.",
  },
);

export const LiveSchema = closed({ status: t.Literal("ok") }, "The process is alive.");

export const ReadySchema = closed(
  {
    status: stringEnum(["ready", "no-snapshot", "stale", "stopping"]),
    snapshotAt: t.Union([t.String({ format: "date-time" }), t.Null()]),
    ageSeconds: t.Union([t.Integer({ minimum: 0 }), t.Null()]),
    maxAgeSeconds: t.Union([t.Integer({ minimum: 1 }), t.Null()], { description: "READY_MAX_AGE_S; null: no bound." }),
    redis: t.Optional(
      closed(
        {
          status: stringEnum(["up", "down", "degraded"], {
            description:
              "`degraded`: connected, but commands missed their deadline; treated as down until a probe answers.",
          }),
          downSince: t.Union([t.String({ format: "date-time" }), t.Null()]),
          limiter: stringEnum(["shared", "in-process"]),
        },
        "With REDIS_URL only: the shared store, and which rate limit answers while it is down.",
      ),
    ),
  },
  "Readiness: 200 when a snapshot is loaded and fresh enough, 503 otherwise.",
);

/** A body that is not JSON (RSS, HTML, assets): documented by its media type alone. */
export const TextSchema = t.String();

export const OpenApiSchema = t.Object(
  { openapi: t.String({ pattern: "^3\\.1\\." }), info: t.Object({}), paths: t.Object({}) },
  { description: "An OpenAPI 3.1 document." },
);

/**
 * What an update of a plugin changed: two readings of its manifests (the details two snapshots
 * hold, with the commits they were read at and the versions they declare) compared component by
 * component. Pure and bounded: each list of the diff keeps at most MAX_DIFF_ITEMS, `counts` holds
 * the true numbers. The refresh computes it when a snapshot is built (update-history.ts); the
 * snapshot stores it and serves it as `last_update`.
 *
 * The version compared is the one the plugin declares for its harness: server.json's
 * `mcp_registry.version` when the plugin has one (an MCP server), else the tag of its latest
 * release. A Claude Code plugin's plugin.json `version` is not among the details the refresh keeps,
 * so its release tag stands for it; a plugin with neither has no version (null on both sides).
 */
import { type Static, Type } from "@sinclair/typebox";
import type { Install, PluginDetails } from "./details";
import { HARNESSES } from "./details";
import { RISK_RULES, type RiskNote } from "./risk";

/** Items kept per list of a diff. */
export const MAX_DIFF_ITEMS = 50;
/** Characters kept of an install line's text (a command, or a configuration as JSON). */
export const MAX_LINE_TEXT = 500;

/** The component lists compared by name. */
export const COMPONENT_LISTS = ["skills", "commands", "agents", "hooks", "mcp_servers", "plugins"] as const;
export type ComponentList = (typeof COMPONENT_LISTS)[number];

const Name = Type.String({ minLength: 1, maxLength: 100 });
const Names = Type.Array(Name, { maxItems: MAX_DIFF_ITEMS });
const Count = Type.Integer({ minimum: 0, maximum: 1_000_000 });
const Tokens = Type.Union([Type.Integer({ minimum: 0, maximum: 100_000_000 }), Type.Null()]);
const TIME = "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$";
const Time = (description: string) => Type.String({ pattern: TIME, description });

const ComponentsSchema = Type.Object(
  Object.fromEntries(COMPONENT_LISTS.map((list) => [list, Names])) as Record<ComponentList, typeof Names>,
  { additionalProperties: false },
);

const ReadingSchema = Type.Object(
  {
    commit: Type.Union([Type.String({ pattern: "^[0-9a-f]{40}$" }), Type.Null()], {
      description: "The commit the manifests were read at; null when not known.",
    }),
    version: Type.Union([Type.String({ minLength: 1, maxLength: 100 }), Type.Null()], {
      description: "The declared version: server.json's, else the latest release's tag; null when neither.",
    }),
  },
  { additionalProperties: false },
);

export const LineSchema = Type.Object(
  {
    harness: Type.Union(HARNESSES.map((h) => Type.Literal(h))),
    kind: Type.String({ minLength: 1, maxLength: 20 }),
    text: Type.String({
      minLength: 1,
      maxLength: MAX_LINE_TEXT + 1,
      description: "The command, or the configuration as JSON, cut at 500 characters (then ending in `…`).",
    }),
  },
  { additionalProperties: false },
);
export type Line = Static<typeof LineSchema>;

const PackageSchema = Type.Object(
  {
    harness: Type.Union(HARNESSES.map((h) => Type.Literal(h))),
    kind: Type.String({ minLength: 1, maxLength: 20 }),
    from: Type.String({ minLength: 1, maxLength: 100, description: "The file the line was read from." }),
    before: LineSchema.properties.text,
    after: LineSchema.properties.text,
  },
  { additionalProperties: false, description: "A package line whose name or version changed: before and after." },
);

const RiskAddedSchema = Type.Object(
  {
    rule: Type.Union(RISK_RULES.map((r) => Type.Literal(r))),
    file: Type.String({ minLength: 1, maxLength: 200 }),
    line: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
  },
  { additionalProperties: false },
);

const DiffCountsSchema = Type.Object(
  {
    added: Type.Object(
      Object.fromEntries(COMPONENT_LISTS.map((l) => [l, Count])) as Record<ComponentList, typeof Count>,
      {
        additionalProperties: false,
      },
    ),
    removed: Type.Object(
      Object.fromEntries(COMPONENT_LISTS.map((l) => [l, Count])) as Record<ComponentList, typeof Count>,
      { additionalProperties: false },
    ),
    install_added: Count,
    install_removed: Count,
    packages: Count,
    risk_added: Count,
  },
  { additionalProperties: false, description: "The true length of each list; the lists keep at most 50." },
);

/** An update seen between two snapshots: what the later reading adds and drops. */
export const ChangedSchema = Type.Object(
  {
    kind: Type.Literal("changed"),
    at: Time("The snapshot the update was first seen in."),
    since: Time("The snapshot it is compared with (the one before)."),
    from: ReadingSchema,
    to: ReadingSchema,
    version_unchanged: Type.Boolean({
      description: "The content changed while the declared version did not move (both null counts as not moved).",
    }),
    added: ComponentsSchema,
    removed: ComponentsSchema,
    install: Type.Object(
      {
        added: Type.Array(LineSchema, { maxItems: MAX_DIFF_ITEMS }),
        removed: Type.Array(LineSchema, { maxItems: MAX_DIFF_ITEMS }),
      },
      { additionalProperties: false },
    ),
    packages: Type.Array(PackageSchema, { maxItems: MAX_DIFF_ITEMS }),
    risk_added: Type.Array(RiskAddedSchema, {
      maxItems: MAX_DIFF_ITEMS,
      description: "Risk notes the later reading has and the earlier did not (by rule, file and excerpt).",
    }),
    context: Type.Object(
      {
        before: Tokens,
        after: Tokens,
        delta: Type.Union([Type.Integer({ minimum: -100_000_000, maximum: 100_000_000 }), Type.Null()]),
      },
      { additionalProperties: false, description: "The always-on context cost in tokens, before and after." },
    ),
    counts: DiffCountsSchema,
  },
  { additionalProperties: false },
);
export type Changed = Static<typeof ChangedSchema>;

/** A plugin's first appearance in the catalog: nothing to compare with. */
export const NewSchema = Type.Object(
  {
    kind: Type.Literal("new"),
    at: Time("The snapshot it first appeared in."),
    since: Time("The snapshot before, which did not hold it."),
    to: ReadingSchema,
  },
  { additionalProperties: false },
);

export const LastUpdateSchema = Type.Union([ChangedSchema, NewSchema], {
  description:
    "What the plugin's last update changed, kept until the next one: `changed` (the diff of two readings) or " +
    "`new` (first seen). Null when no update was seen since the catalog started keeping them.",
});
export type LastUpdate = Static<typeof LastUpdateSchema>;

/** The commit and declared version of a reading (see the module's comment for which version). */
export function readingOf(details: PluginDetails | null): { commit: string | null; version: string | null } {
  return {
    commit: details?.contents?.commit ?? null,
    version: details?.mcp_registry?.version ?? details?.latest_release?.tag ?? null,
  };
}

/** The names of one component list of a reading. */
function names(details: PluginDetails, list: ComponentList): string[] {
  const contents = details.contents;
  if (contents === null) return [];
  if (list === "skills") return contents.skills.map((s) => s.name);
  if (list === "plugins") return contents.plugins.map((p) => p.name);
  return contents[list];
}

/** The items of `after` not in `before`, each once, in `after`'s order; the first MAX_DIFF_ITEMS of them kept. */
function minus<T>(after: readonly T[], before: readonly T[], key: (item: T) => string) {
  const seen = new Set(before.map(key));
  const all: T[] = [];
  for (const item of after) {
    const k = key(item);
    if (seen.has(k)) continue;
    seen.add(k);
    all.push(item);
  }
  return { all, kept: all.slice(0, MAX_DIFF_ITEMS), count: all.length };
}

function cut(text: string): string {
  return text.length > MAX_LINE_TEXT ? `${text.slice(0, MAX_LINE_TEXT)}…` : text;
}

/** An install instruction as the diff shows it. */
function lineOf(install: Install): Line {
  const text = install.command ?? JSON.stringify(install.config ?? {});
  return { harness: install.harness, kind: install.kind, text: cut(text) };
}

const lineKey = (i: Install) => `${i.harness}\0${i.kind}\0${i.command ?? JSON.stringify(i.config ?? {})}`;
const PACKAGE_KINDS = new Set(["npm", "pypi", "oci"]);

/**
 * Package lines dropped and added from the same file for the same harness and kind: one package
 * whose name or version changed, before and after, paired in order.
 */
function packageChanges(removed: readonly Install[], added: readonly Install[]) {
  const slot = (i: Install) => `${i.harness}\0${i.kind}\0${i.from}`;
  const waiting = new Map<string, Install[]>();
  for (const r of removed)
    if (PACKAGE_KINDS.has(r.kind)) (waiting.get(slot(r)) ?? waiting.set(slot(r), []).get(slot(r))!).push(r);
  const changes: Array<Static<typeof PackageSchema>> = [];
  let count = 0;
  for (const a of added) {
    const before = PACKAGE_KINDS.has(a.kind) ? waiting.get(slot(a))?.shift() : undefined;
    if (before === undefined) continue;
    count++;
    if (changes.length < MAX_DIFF_ITEMS) {
      changes.push({
        harness: a.harness,
        kind: a.kind,
        from: a.from,
        before: lineOf(before).text,
        after: lineOf(a).text,
      });
    }
  }
  return { changes, count };
}

const noteKey = (n: RiskNote) => `${n.rule}\0${n.file}\0${n.excerpt}`;

/**
 * What the reading `after` changed from `before`, seen in the snapshot of `at` against the one of
 * `since`; null when nothing the diff shows changed (components, install lines, risk notes, the
 * context cost, the declared version).
 */
export function updateDiff(before: PluginDetails, after: PluginDetails, at: string, since: string): Changed | null {
  const added = {} as Record<ComponentList, string[]>;
  const removed = {} as Record<ComponentList, string[]>;
  const addedCounts = {} as Record<ComponentList, number>;
  const removedCounts = {} as Record<ComponentList, number>;
  let changes = 0;
  for (const list of COMPONENT_LISTS) {
    const [was, now] = [names(before, list), names(after, list)];
    const plus = minus(now, was, (n) => n);
    const less = minus(was, now, (n) => n);
    [added[list], addedCounts[list], removed[list], removedCounts[list]] = [
      plus.kept,
      plus.count,
      less.kept,
      less.count,
    ];
    changes += plus.count + less.count;
  }
  const installAdded = minus(after.install, before.install, lineKey);
  const installRemoved = minus(before.install, after.install, lineKey);
  const packages = packageChanges(installRemoved.all, installAdded.all);
  const risk = minus(after.risk ?? [], before.risk ?? [], noteKey);
  const [tokensBefore, tokensAfter] = [before.context?.always_on ?? null, after.context?.always_on ?? null];
  const delta = tokensBefore !== null && tokensAfter !== null ? tokensAfter - tokensBefore : null;
  changes += installAdded.count + installRemoved.count + risk.count;
  if (tokensBefore !== tokensAfter) changes++;
  const from = readingOf(before);
  const to = readingOf(after);
  const versionMoved = from.version !== to.version;
  if (changes === 0 && !versionMoved) return null;
  return {
    kind: "changed",
    at,
    since,
    from,
    to,
    version_unchanged: changes > 0 && !versionMoved,
    added,
    removed,
    install: { added: installAdded.kept.map(lineOf), removed: installRemoved.kept.map(lineOf) },
    packages: packages.changes,
    risk_added: risk.kept.map(({ rule, file, line }) => ({ rule, file, line })),
    context: { before: tokensBefore, after: tokensAfter, delta },
    counts: {
      added: addedCounts,
      removed: removedCounts,
      install_added: installAdded.count,
      install_removed: installRemoved.count,
      packages: packages.count,
      risk_added: risk.count,
    },
  };
}

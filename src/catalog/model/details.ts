/**
 * What a plugin's manifests say about it: its contents, ready install instructions, the harnesses
 * it works with, and trust flags. The refresh reads them (src/refresh/manifests.ts); the builder
 * stores them beside the full form's fields (docs/api.md, Resources), and a client sees them only when it asks
 * (`include=contents,install,flags,works_with`) or in the catalog form (catalog.json, changes).
 */
import { type Static, Type } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";

/** Harness ids of `works_with`, `install[].harness` and the `harness=` filter. */
export const HARNESSES = ["claude-code", "mcp", "gemini-cli", "agent-skills"] as const;
export type Harness = (typeof HARNESSES)[number];

/** The content kinds of the `has=` filter: `install` is "has an install instruction". */
export const HAS_KINDS = ["skills", "commands", "agents", "hooks", "mcp", "install"] as const;
export type HasKind = (typeof HAS_KINDS)[number];

/** The parts a client may ask for with `include=`. */
export const INCLUDE_PARTS = ["contents", "install", "flags", "works_with"] as const;
export type IncludePart = (typeof INCLUDE_PARTS)[number];

/** Items kept per contents list; the true number is in `counts`. */
export const MAX_LIST_ITEMS = 100;
/** Install instructions kept per plugin. */
export const MAX_INSTRUCTIONS = 24;

const Name = Type.String({ minLength: 1, maxLength: 100 });
const Text = Type.Union([Type.String({ maxLength: 300 }), Type.Null()]);
const Count = Type.Integer({ minimum: 0, maximum: 1_000_000 });

export const ContentsSchema = Type.Object(
  {
    skills: Type.Array(Type.Object({ name: Name, description: Text }), { maxItems: MAX_LIST_ITEMS }),
    commands: Type.Array(Name, { maxItems: MAX_LIST_ITEMS }),
    agents: Type.Array(Name, { maxItems: MAX_LIST_ITEMS }),
    hooks: Type.Array(Name, { maxItems: MAX_LIST_ITEMS, description: "Hook events (PreToolUse, Stop, …)." }),
    mcp_servers: Type.Array(Name, { maxItems: MAX_LIST_ITEMS }),
    plugins: Type.Array(
      Type.Object({
        name: Name,
        source: Type.String({ minLength: 1, maxLength: 300 }),
        description: Text,
      }),
      { maxItems: MAX_LIST_ITEMS, description: "A marketplace's plugins." },
    ),
    counts: Type.Object(
      {
        skills: Count,
        commands: Count,
        agents: Count,
        hooks: Count,
        mcp_servers: Count,
        plugins: Count,
      },
      { description: "How many of each the manifests name; the lists keep at most 100." },
    ),
  },
  { additionalProperties: false },
);
export type Contents = Static<typeof ContentsSchema>;

export const EnvSchema = Type.Object(
  {
    name: Type.String({ pattern: "^[A-Za-z_][A-Za-z0-9_]{0,63}$" }),
    secret: Type.Boolean(),
    required: Type.Boolean(),
  },
  { additionalProperties: false },
);

export const InstallSchema = Type.Object(
  {
    harness: Type.Union(HARNESSES.map((h) => Type.Literal(h))),
    kind: Type.Union(
      ["marketplace", "plugin", "npm", "pypi", "oci", "remote", "skill", "extension"].map((k) => Type.Literal(k)),
    ),
    command: Type.Optional(Type.String({ minLength: 1, maxLength: 1000 })),
    config: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    env: Type.Array(EnvSchema, { maxItems: 50 }),
    from: Type.String({ minLength: 1, maxLength: 100 }),
  },
  { additionalProperties: false },
);
export type Install = Static<typeof InstallSchema>;

const RepoId = Type.String({ pattern: "^[A-Za-z0-9][A-Za-z0-9-]{0,38}/[A-Za-z0-9._-]{1,100}$" });

/** An MCP registry server name: a reverse-DNS namespace, one slash, the server's own name. */
export const MCP_SERVER_NAME = "^[a-zA-Z0-9.-]{1,100}/[a-zA-Z0-9._-]{1,100}$";
/** An exact version as server.json may state it: no range, no wildcard, not `latest` (checked apart). */
export const MCP_SERVER_VERSION = "^[0-9A-Za-z][0-9A-Za-z.+_-]{0,99}$";

/** The identity a server.json states: its full name and its own version, when exact. */
export const McpRegistrySchema = Type.Object(
  {
    name: Type.String({ pattern: MCP_SERVER_NAME }),
    version: Type.Union([Type.String({ pattern: MCP_SERVER_VERSION }), Type.Null()]),
  },
  { additionalProperties: false },
);
export type McpRegistryIdentity = Static<typeof McpRegistrySchema>;

/** What the refresh read for one plugin: stored in its checkpoint and in the snapshot. */
export const DetailsSchema = Type.Object(
  {
    contents: Type.Union([ContentsSchema, Type.Null()]),
    install: Type.Array(InstallSchema, { maxItems: MAX_INSTRUCTIONS }),
    works_with: Type.Array(Type.Union(HARNESSES.map((h) => Type.Literal(h)))),
    fork_of: Type.Union([RepoId, Type.Null()]),
    deprecated: Type.Boolean(),
    latest_release: Type.Union([
      Type.Object({ tag: Type.String({ minLength: 1, maxLength: 100 }), date: Type.String() }),
      Type.Null(),
    ]),
    /** server.json's name and version, kept for the MCP registry API; absent when none was accepted. */
    mcp_registry: Type.Optional(McpRegistrySchema),
  },
  { additionalProperties: false },
);
export type PluginDetails = Static<typeof DetailsSchema>;

const checkDetails = TypeCompiler.Compile(DetailsSchema);

/** The details if they are what the schema says (a stored value is checked before it is trusted again). */
export function validDetails(value: unknown): PluginDetails | null {
  return checkDetails.Check(value) ? value : null;
}

/** A plugin whose manifests were never read: nothing known, nothing claimed. */
export function noDetails(): PluginDetails {
  return { contents: null, install: [], works_with: [], fork_of: null, deprecated: false, latest_release: null };
}

/** The `has=` kinds a plugin answers to. */
export function hasKinds(details: PluginDetails | null): HasKind[] {
  if (details === null) return [];
  const c = details.contents;
  const kinds: HasKind[] = [];
  if (c && c.counts.skills > 0) kinds.push("skills");
  if (c && c.counts.commands > 0) kinds.push("commands");
  if (c && c.counts.agents > 0) kinds.push("agents");
  if (c && c.counts.hooks > 0) kinds.push("hooks");
  if ((c && c.counts.mcp_servers > 0) || details.works_with.includes("mcp")) kinds.push("mcp");
  if (details.install.length > 0) kinds.push("install");
  return kinds;
}

/** The JSON members each `include=` part adds to a full-form plugin, serialized once per snapshot. */
export interface DetailFragments {
  contents: string;
  install: string;
  flags: string;
  works_with: string;
}

export function detailFragments(details: PluginDetails | null, lookalikeOf: string | null): DetailFragments {
  const d = details ?? noDetails();
  return {
    contents: `"contents":${JSON.stringify(d.contents)}`,
    install: `"install":${JSON.stringify(d.install)}`,
    flags:
      `"fork_of":${JSON.stringify(d.fork_of)},"deprecated":${d.deprecated},` +
      `"lookalike_of":${JSON.stringify(lookalikeOf)},"latest_release":${JSON.stringify(d.latest_release)}`,
    works_with: `"works_with":${JSON.stringify(d.works_with)}`,
  };
}

/** A full-form JSON object with the asked parts appended, in INCLUDE_PARTS order. */
export function withParts(json: string, fragments: DetailFragments, parts: readonly IncludePart[]): string {
  if (parts.length === 0) return json;
  return `${json.slice(0, -1)},${INCLUDE_PARTS.filter((p) => parts.includes(p))
    .map((p) => fragments[p])
    .join(",")}}`;
}

/** Levenshtein distance, giving up (returning max + 1) once it must exceed `max`. */
function distance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const value = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      next.push(value);
      best = Math.min(best, value);
    }
    if (best > max) return max + 1;
    row = next;
  }
  return row[b.length]!;
}

/** Every string `word` becomes with up to `depth` characters deleted: the symmetric-delete keys. */
function deletions(word: string, depth: number): Set<string> {
  const out = new Set([word]);
  let frontier = [word];
  for (let d = 0; d < depth; d++) {
    const next: string[] = [];
    for (const w of frontier) {
      for (let i = 0; i < w.length; i++) {
        const shorter = w.slice(0, i) + w.slice(i + 1);
        if (!out.has(shorter)) {
          out.add(shorter);
          next.push(shorter);
        }
      }
    }
    frontier = next;
  }
  return out;
}

/** A name's tail that looks generated: `-x7k2q`, letters and digits mixed, 4 to 8 long. */
const RANDOM_SUFFIX = /^(.+)-([a-z0-9]{4,8})$/;
/** Names shorter than this are too common words to call one a copy of another by spelling. */
export const MIN_LOOKALIKE_NAME = 6;
/** An original has at least this many times the look-alike's stars. */
export const LOOKALIKE_STAR_RATIO = 10;
/** Originals are among this many most starred plugins: imitation copies what is popular, and the index stays small. */
export const LOOKALIKE_ORIGINALS = 1000;
/** Names longer than this are compared by their random suffix only. */
const MAX_SPELLED_NAME = 40;
/** A word in this many plugin names (or 0.5% of them) or more is the catalog's vocabulary (claude, mcp, skills), not a project's own. */
const COMMON_WORD_NAMES = 5;
/** The shortest own word a one-letter (two-letter) slip may change: shorter ones are other words, not typos. */
const MIN_SLIPPED_WORD = [0, 6, 8];

const wordsOf = (name: string) => name.split(/[-_.]+/).filter(Boolean);

/**
 * For each plugin, the plugin of another owner it imitates, when that one has at least ten times
 * its stars: `<name>-<random suffix>` of it; or the same name, or one at edit distance 1 or 2 that
 * differs inside a single word of the project's own (not a word of the catalog's vocabulary, at
 * least six letters for one slip and eight for two). Generic names (`skills`, `claude-code`) and
 * names that differ in a whole word (`dbt-mcp`, `git-mcp`) are no imitation. The most starred
 * original wins, among the LOOKALIKE_ORIGINALS most starred. Once per snapshot, with a
 * symmetric-delete index of those, so the work grows with the catalog, not with its square.
 */
export function lookalikes(plugins: ReadonlyArray<{ id: string; name: string; stars: number }>): Map<string, string> {
  const byStars = [...plugins].sort((a, b) => b.stars - a.stars);
  const usage = new Map<string, number>();
  for (const p of byStars)
    for (const w of new Set(wordsOf(p.name.toLowerCase()))) usage.set(w, (usage.get(w) ?? 0) + 1);
  const common = Math.max(COMMON_WORD_NAMES, byStars.length / 200);
  const own = (word: string) => (usage.get(word) ?? 0) < common;
  const index = new Map<string, number[]>();
  const exact = new Map<string, number>();
  byStars.slice(0, LOOKALIKE_ORIGINALS).forEach((p, i) => {
    const name = p.name.toLowerCase();
    if (!exact.has(name)) exact.set(name, i);
    if (name.length < MIN_LOOKALIKE_NAME || name.length > MAX_SPELLED_NAME) return;
    for (const key of deletions(name, 2)) {
      const list = index.get(key) ?? index.set(key, []).get(key)!;
      list.push(i);
    }
  });
  const mostStars = byStars[0]?.stars ?? 0;
  /**
   * Whether `name` reads as a slip of `other`: the same words with one of the project's own (not
   * the catalog's vocabulary) there, or one own word mistyped (edit distance 1 from a word of six
   * letters or more, 2 from one of eight or more). Words are compared first, so most pairs cost nothing.
   */
  const originalWords = byStars.slice(0, LOOKALIKE_ORIGINALS).map((o) => wordsOf(o.name.toLowerCase()));
  const slip = (a: string[], b: string[]): boolean => {
    if (a.length !== b.length || !a.some(own)) return false;
    let differing: [string, string] | null = null;
    for (let k = 0; k < a.length; k++) {
      if (a[k] === b[k]) continue;
      if (differing !== null) return false;
      differing = [a[k]!, b[k]!];
    }
    if (differing === null) return true;
    const [typed, original] = differing;
    if (!own(original) || original.length < MIN_SLIPPED_WORD[1]!) return false;
    const d = distance(typed, original, 2);
    return d <= 2 && original.length >= MIN_SLIPPED_WORD[d]!;
  };
  const owner = (id: string) => id.slice(0, id.indexOf("/")).toLowerCase();
  const result = new Map<string, string>();
  byStars.forEach((p) => {
    if (LOOKALIKE_STAR_RATIO * Math.max(p.stars, 1) > mostStars) return;
    const name = p.name.toLowerCase();
    const fits = (o: { id: string; stars: number }) =>
      o.stars >= LOOKALIKE_STAR_RATIO * Math.max(p.stars, 1) && owner(o.id) !== owner(p.id);
    let best: number | undefined;
    const suffix = RANDOM_SUFFIX.exec(name);
    if (suffix && /\d/.test(suffix[2]!) && /[a-z]/.test(suffix[2]!)) {
      const i = exact.get(suffix[1]!);
      if (i !== undefined && fits(byStars[i]!)) best = i;
    }
    if (name.length >= MIN_LOOKALIKE_NAME && name.length <= MAX_SPELLED_NAME) {
      const words = wordsOf(name);
      const seen = new Set<number>();
      for (const key of deletions(name, 2)) {
        for (const i of index.get(key) ?? []) {
          // Lists run in stars order: past the first plugin with too few stars, none has enough.
          if (byStars[i]!.stars < LOOKALIKE_STAR_RATIO * Math.max(p.stars, 1) || (best !== undefined && i >= best))
            break;
          if (seen.has(i)) continue;
          seen.add(i);
          const o = byStars[i]!;
          if (o.id === p.id || !fits(o)) continue;
          if (slip(words, originalWords[i]!)) best = i;
        }
      }
    }
    if (best !== undefined) result.set(p.id.toLowerCase(), byStars[best]!.id);
  });
  return result;
}

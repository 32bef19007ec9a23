/**
 * GET /market/claude/marketplace.json (every Claude Code plugin the catalog lists),
 * /market/claude/categories/{id}/marketplace.json (one category's) and
 * /market/claude/picks/marketplace.json (the editors' picks): marketplace.json documents that
 * Claude Code adds from a URL (`/plugin marketplace add <url>`), written once per snapshot.
 */
import { Type as t } from "@sinclair/typebox";
import { PreparedPerSnapshot } from "../../catalog/snapshot/prepared";
import type { Snapshot } from "../../catalog/snapshot/snapshot";
import type { CatalogStore } from "../../catalog/snapshot/store";
import type { Answer } from "../../http/answer";
import { CACHE_CONTROL, JSON_TYPE, render } from "../../http/cache";
import { notFound } from "../../http/errors";
import type { RouteDoc } from "../../http/openapi";
import { ClaudeMarketplaces, MARKETPLACE_NAME, PICKS } from "./marketplaces";

const Sha = t.Optional(
  t.String({
    pattern: "^[0-9a-f]{40}$",
    description: "The commit the catalog read the plugin's marketplace at: Claude Code fetches exactly it.",
  }),
);

const CloneUrl = (more = "") =>
  t.String({
    pattern: "^https://github\\.com/[A-Za-z0-9-]+/[A-Za-z0-9._-]+\\.git$",
    description:
      "`https://github.com/<owner>/<repo>.git`, which Claude Code clones over https without credentials " +
      `(a \`github\` source it clones over SSH).${more}`,
  });

const Ref = t.Optional(
  t.String({ description: "The branch or tag the author's own entry names (then `sha` only when it pins one too)." }),
);

const SourceSchema = t.Union([
  t.Object({
    source: t.Literal("url"),
    url: CloneUrl(" The plugin is its root."),
    ref: Ref,
    sha: Sha,
  }),
  t.Object({
    source: t.Literal("git-subdir"),
    url: CloneUrl(),
    path: t.String({ minLength: 1, description: "The plugin's folder in it." }),
    ref: Ref,
    sha: Sha,
  }),
]);

const Paths = (what: string) =>
  t.Optional(
    t.Union([t.String(), t.Array(t.String())], {
      description: `The author's entry's ${what}: one path or a list, relative to the plugin's folder.`,
    }),
  );

export const MarketplaceSchema = t.Object(
  {
    name: t.String({ description: "`plugin-catalog`, `plugin-catalog-<category>` or `plugin-catalog-picks`." }),
    owner: t.Object({ name: t.String(), url: t.String() }),
    description: t.String(),
    plugins: t.Array(
      t.Object({
        name: t.String({
          pattern: "^[A-Za-z0-9][-A-Za-z0-9._]*$",
          description:
            "Unique in every marketplace of a snapshot; the plugin's own when no other has it. Never one " +
            "Claude Code reserves for Anthropic: such an entry is left out.",
        }),
        source: SourceSchema,
        description: t.Optional(t.String()),
        version: t.Optional(t.String({ description: "The author's entry's version." })),
        strict: t.Optional(
          t.Boolean({ description: "The author's entry's: false when the entry is the plugin's whole manifest." }),
        ),
        skills: Paths("skill folders"),
        commands: Paths("command files or folders"),
        agents: Paths("agent files"),
        hooks: Paths("hook configuration files"),
        mcpServers: Paths("MCP server configuration files"),
        category: t.String({ description: "The listed repository's primary category." }),
        homepage: t.String({ description: "The plugin's page in the catalog." }),
        repository: t.String({ description: "The repository holding it." }),
      }),
    ),
  },
  { description: "A Claude Code marketplace.json." },
);

const doc = (summary: string, description: string): RouteDoc<Snapshot> => ({
  tag: "Client sync",
  summary,
  description:
    `${description} Add it in Claude Code with \`/plugin marketplace add <this URL>\` (or ` +
    "`claude plugin marketplace add <URL>`); entries are plugins that listed repositories' marketplace.json " +
    "files name inside the repository (forks, look-alikes and archived repositories left out, and names " +
    "Claude Code reserves for Anthropic), cloned over https.",
  body: MarketplaceSchema,
  cached: "snapshot",
});

export const claudeDocs = {
  all: doc("A Claude Code marketplace of every plugin", "Every Claude Code plugin the catalog lists."),
  category: {
    ...doc("A Claude Code marketplace of one category", "The Claude Code plugins of one category."),
    params: t.Object({ id: t.String({ description: "A category id (see /api/v1/categories).", examples: ["mcp"] }) }),
    more: { 404: { description: "No such category.", message: "Category nothing not found." } },
  },
  picks: doc("A Claude Code marketplace of the editors' picks", "The editors' picks among Claude Code plugins."),
} satisfies Record<string, RouteDoc<Snapshot>>;

export function claudeHandlers(answer: Answer, store: CatalogStore, baseUrl: string) {
  const prepared = PreparedPerSnapshot.following(store, (snapshot) => ClaudeMarketplaces.writing(snapshot, baseUrl));
  const serve = (snapshot: Snapshot, key: string) => {
    const text = prepared.get(snapshot).get(key);
    if (text === null) throw notFound(`Category ${key.slice(0, 100)}`);
    return render(text, JSON_TYPE, CACHE_CONTROL);
  };
  return {
    /** Where repository `id`'s plugins are served: the marketplace of every plugin, its URL and their names. */
    servedIn: (snapshot: Snapshot, id: string) => {
      const names = prepared.get(snapshot).served(id);
      const url = `${baseUrl}/market/claude/marketplace.json`;
      return names.length ? { marketplace: MARKETPLACE_NAME, url, names } : null;
    },
    all: answer.route(
      "claude-all",
      () => undefined,
      (snapshot) => serve(snapshot, "all"),
    ),
    picks: answer.route(
      "claude-picks",
      () => undefined,
      (snapshot) => serve(snapshot, PICKS),
    ),
    category: answer.route(
      "claude-category",
      (_query, snapshot, path: { id: string }) => {
        if (!snapshot.categoryIds.has(path.id)) throw notFound(`Category ${path.id.slice(0, 100)}`);
        return { id: path.id };
      },
      (snapshot, { id }) => serve(snapshot, id),
    ),
  };
}

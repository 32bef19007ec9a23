/** @jsxImportSource preact */
/**
 * GET /: the catalog for a person with a browser: what it is, its numbers, the newest plugins and
 * the editors' picks, the categories, the search box, where the API, its reference, the feeds and
 * the manifest are, and for plugin authors how a repository gets listed. One HTML page per
 * snapshot, no script; every upstream string is text of its JSX.
 */
import type { Snapshot } from "../catalog/snapshot/snapshot";
import type { Answer } from "../http/answer";
import type { Rendered } from "../http/cache";
import type { RouteDoc } from "../http/openapi";
import { categoryPath, pluginPath } from "../http/paths";
import { TextSchema } from "../http/wire-schemas";
import { DateText, number, Page, renderPage, Stars } from "./layout";

const NEWEST_SHOWN = 10;

interface Pick {
  id: string;
  description: string;
  description_zh: string | null;
  stars: number;
}

const PickItem = ({ pick }: { pick: Pick }) => (
  <li>
    <a href={pluginPath(pick.id)}>{pick.id}</a> <Stars stars={pick.stars} />
    {pick.description_zh ? <p lang="zh">{pick.description_zh}</p> : null}
    {pick.description ? <p>{pick.description}</p> : null}
  </li>
);

/** Names as code, comma-separated. */
const Codes = ({ items }: { items: readonly string[] }) =>
  items.map((item, i) => (
    <>
      {i > 0 ? ", " : null}
      <code>{item}</code>
    </>
  ));

/** An example id: the most starred plugin, or a placeholder in an empty catalog. */
function exampleId(snapshot: Snapshot): string {
  const first = snapshot.byStars(0, 1).items[0];
  return first === undefined ? "owner/repo" : (JSON.parse(first) as { id: string }).id;
}

/** The evidence a repository is listed on, as the snapshot's refresh accepted it. */
function Evidence({ snapshot }: { snapshot: Snapshot }) {
  const rules = snapshot.listingRules;
  const kinds = [
    rules.files.length ? (
      <>
        one of the files <Codes items={rules.files.map((f) => f.path)} /> at its root
      </>
    ) : null,
    rules.folders.length ? (
      <>
        one of the folders <Codes items={rules.folders} />
      </>
    ) : null,
    rules.dependencies.length ? (
      <>
        a dependency on an MCP SDK (<Codes items={rules.dependencies} />)
      </>
    ) : null,
    rules.topics.length ? (
      <>
        one of the topics <Codes items={rules.topics} />
      </>
    ) : null,
    "a link from a curated list or a plugin marketplace the catalog reads, or the editors' word",
  ].filter((kind) => kind !== null);
  return kinds.map((kind, i) => (
    <>
      {i > 0 ? "; " : null}
      {kind}
    </>
  ));
}

/**
 * The section for plugin authors: how a repository gets listed (the evidence the snapshot's
 * refresh accepted), how to check one, and the badge's Markdown.
 */
function AuthorsSection({ snapshot, baseUrl }: { snapshot: Snapshot; baseUrl: string }) {
  const id = exampleId(snapshot);
  const badge = `[![Plugin Catalog](${baseUrl}/badge/${id}.svg)](${baseUrl}/plugin/${id})`;
  return (
    <section aria-labelledby="authors">
      <h2 id="authors">For plugin authors</h2>
      <p>
        A refresh (every six hours by default) searches the hosting platform for candidates and lists one only with
        evidence that it extends a coding-agent harness: <Evidence snapshot={snapshot} />. A listed plugin stays listed.
      </p>
      <p>
        Ask why a repository is or is not listed, and when it is checked next:{" "}
        <a href={`/api/v1/listing/${id}`}>
          <code>{`${baseUrl}/api/v1/listing/${id}`}</code>
        </a>{" "}
        (<code>status</code>, <code>reason</code>, the evidence checked and what to change).
      </p>
      <p>
        Show a listing in a README (a grey “not listed” badge otherwise; <code>?show=category</code> or{" "}
        <code>?show=stars</code> say more; <code>.json</code> gives the shields.io endpoint form):
      </p>
      <div class="command">
        <pre data-copy="the badge's Markdown">
          <code>{badge}</code>
        </pre>
      </div>
    </section>
  );
}

const READ_LINKS: ReadonlyArray<[string, string]> = [
  ["/browse", "Browse all plugins"],
  ["/docs", "API reference"],
  ["/openapi.json", "OpenAPI document"],
  ["/api/v1/plugins", "JSON API"],
  ["/plugins/feed.xml", "RSS feed"],
  ["/plugins/feed.atom", "Atom feed"],
  ["/plugins/feed.json", "JSON Feed"],
  ["/market/manifest.json", "Client-sync manifest"],
  ["/v0.1/servers", "MCP registry API (VS Code: chat.mcp.gallery.serviceUrl)"],
  ["/market/claude/marketplace.json", "Claude Code marketplace"],
];

function Stats({ snapshot }: { snapshot: Snapshot }) {
  const { total, curated, categories, totalStars } = snapshot.stats;
  const stats: Array<[string, number]> = [
    ["plugins", total],
    ["curated", curated],
    ["categories", categories],
    ["stars in all", totalStars],
  ];
  return (
    <section aria-labelledby="stats">
      <h2 id="stats">In the catalog</h2>
      <dl class="stats">
        {stats.map(([what, n]) => (
          <div>
            <dt>{what}</dt>
            <dd>{number(n)}</dd>
          </div>
        ))}
      </dl>
      <p>
        Snapshot of <DateText at={snapshot.snapshotAt} length={16} />.
      </p>
    </section>
  );
}

/** The page: a pure function of the snapshot and the base address. */
function renderLanding(snapshot: Snapshot, baseUrl: string): Rendered {
  const picked = snapshot.list({
    q: null,
    category: null,
    curated: true,
    sort: "stars",
    offset: 0,
    limit: snapshot.stats.curated,
  });
  const counts = snapshot.categoryCounts({ q: null, curated: false });
  return renderPage(
    <Page title="Plugin Catalog" canonical="/">
      <h1>Plugin Catalog</h1>
      <p>
        A public, read-only catalog of plugins for coding-agent harnesses: MCP servers, CLIs, agent workflows, skills
        and hooks, each one a repository on GitHub. Search it above, <a href="/browse">browse every plugin</a> or a
        category below, follow its feeds, or read it as a JSON API or a client-sync source; no account or key is needed.
      </p>
      <nav aria-label="Ways to read the catalog" class="links">
        <ul>
          {READ_LINKS.map(([href, text]) => (
            <li>
              <a href={href}>{text}</a>
            </li>
          ))}
        </ul>
      </nav>
      <Stats snapshot={snapshot} />
      <section aria-labelledby="newest">
        <h2 id="newest">Newest plugins</h2>
        <ul class="plugins">
          {snapshot.newest(NEWEST_SHOWN).map((row) => (
            <li>
              <a href={pluginPath(row.full_name)}>{row.full_name}</a>
              {row.description ? <p>{row.description}</p> : null}
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="picks">
        <h2 id="picks">
          Editors' picks <span lang="zh">编辑精选</span>
        </h2>
        <ul class="plugins">
          {picked.items.map((json) => (
            <PickItem pick={JSON.parse(json) as Pick} />
          ))}
        </ul>
      </section>
      <section aria-labelledby="categories">
        <h2 id="categories">Categories</h2>
        <ul>
          {snapshot.categories.map((c) => (
            <li>
              <a href={categoryPath(c.id)}>{c.name}</a> <span lang="zh">{c.name_zh}</span> (
              {number(counts.get(c.id) ?? 0)})
            </li>
          ))}
        </ul>
      </section>
      <AuthorsSection snapshot={snapshot} baseUrl={baseUrl} />
    </Page>,
  );
}

export const landingDoc: RouteDoc = {
  tag: "Documentation",
  summary: "The catalog's home page (HTML)",
  description: "What the catalog is, its numbers, the newest plugins, the editors' picks and links to everything else.",
  body: TextSchema,
  type: "text/html",
  cached: "snapshot",
};

export function landingHandlers(answer: Answer, baseUrl: string) {
  return {
    page: answer.route(
      "landing",
      () => undefined,
      (snapshot) => renderLanding(snapshot, baseUrl),
    ),
  };
}

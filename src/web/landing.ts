/**
 * GET /: the catalog for a person with a browser: what it is, its numbers, the newest plugins and
 * the editors' picks, the categories, the search box, where the API, its reference, the feeds and
 * the manifest are, and for plugin authors how a repository gets listed. One HTML page per
 * snapshot, no script; every upstream string is escaped.
 */
import type { Snapshot } from "../catalog/snapshot/snapshot";
import type { Answer } from "../http/answer";
import type { Rendered } from "../http/cache";
import type { RouteDoc } from "../http/openapi";
import { categoryPath, pluginPath } from "../http/paths";
import { TextSchema } from "../http/wireschemas";
import { esc, number, page, renderPage } from "./layout";

const NEWEST_SHOWN = 10;

interface Pick {
  id: string;
  description: string;
  description_zh: string | null;
  stars: number;
}

function pickItem(pick: Pick): string {
  const zh = pick.description_zh ? `<p lang="zh">${esc(pick.description_zh)}</p>` : "";
  const en = pick.description ? `<p>${esc(pick.description)}</p>` : "";
  const stars = `<span aria-hidden="true">★</span> ${number(pick.stars)}<span class="hidden"> stars</span>`;
  return `<li><a href="${esc(pluginPath(pick.id))}">${esc(pick.id)}</a> ${stars}${zh}${en}</li>`;
}

const codes = (items: readonly string[]) => items.map((item) => `<code>${esc(item)}</code>`).join(", ");

/** An example id: the most starred plugin, or a placeholder in an empty catalog. */
function exampleId(snapshot: Snapshot): string {
  const first = snapshot.byStars(0, 1).items[0];
  return first === undefined ? "owner/repo" : (JSON.parse(first) as { id: string }).id;
}

/**
 * The section for plugin authors: how a repository gets listed (the evidence the snapshot's
 * refresh accepted), how to check one, and the badge's Markdown.
 */
function authorsSection(snapshot: Snapshot, baseUrl: string): string {
  const rules = snapshot.listingRules;
  const id = exampleId(snapshot);
  const base = esc(baseUrl);
  const evidence: string[] = [];
  if (rules.files.length) evidence.push(`one of the files ${codes(rules.files.map((f) => f.path))} at its root`);
  if (rules.folders.length) evidence.push(`one of the folders ${codes(rules.folders)}`);
  if (rules.dependencies.length) evidence.push(`a dependency on an MCP SDK (${codes(rules.dependencies)})`);
  if (rules.topics.length) evidence.push(`one of the topics ${codes(rules.topics)}`);
  evidence.push("a link from a curated list or a plugin marketplace the catalog reads, or the editors' word");
  const badge = `[![Plugin Catalog](${baseUrl}/badge/${id}.svg)](${baseUrl}/plugin/${id})`;
  return `<section aria-labelledby="authors">
<h2 id="authors">For plugin authors</h2>
<p>A refresh (every six hours by default) searches the hosting platform for candidates and lists one only with
evidence that it extends a coding-agent harness: ${evidence.join("; ")}. A listed plugin stays listed.</p>
<p>Ask why a repository is or is not listed, and when it is checked next:
<a href="/api/v1/listing/${esc(id)}"><code>${base}/api/v1/listing/${esc(id)}</code></a>
(<code>status</code>, <code>reason</code>, the evidence checked and what to change).</p>
<p>Show a listing in a README (a grey “not listed” badge otherwise; <code>?show=category</code> or
<code>?show=stars</code> say more; <code>.json</code> gives the shields.io endpoint form):</p>
<div class="command"><pre data-copy="the badge's Markdown"><code>${esc(badge)}</code></pre></div>
</section>`;
}

/** The page: a pure function of the snapshot and the base address. */
function renderLanding(snapshot: Snapshot, baseUrl: string): Rendered {
  const { total, curated, categories, totalStars } = snapshot.stats;
  const newest = snapshot.newest(NEWEST_SHOWN).map((row) => {
    const about = row.description ? `<p>${esc(row.description)}</p>` : "";
    return `<li><a href="${esc(pluginPath(row.full_name))}">${esc(row.full_name)}</a>${about}</li>`;
  });
  const picked = snapshot.list({ q: null, category: null, curated: true, sort: "stars", offset: 0, limit: curated });
  const picks = picked.items.map((json) => pickItem(JSON.parse(json) as Pick));
  const counts = snapshot.categoryCounts({ q: null, curated: false });
  const categoryLinks = snapshot.categories.map(
    (c) =>
      `<li><a href="${esc(categoryPath(c.id))}">${esc(c.name)}</a> <span lang="zh">${esc(c.name_zh)}</span> (${number(counts.get(c.id) ?? 0)})</li>`,
  );
  const at = snapshot.snapshotAt;
  const main = `<h1>Plugin Catalog</h1>
<p>A public, read-only catalog of plugins for coding-agent harnesses: MCP servers, CLIs, agent workflows, skills
and hooks, each one a repository on GitHub. Search it above, <a href="/browse">browse every plugin</a> or a category
below, follow its feeds, or read it as a JSON API or a client-sync source; no account or key is needed.</p>
<nav aria-label="Ways to read the catalog" class="links"><ul>
<li><a href="/browse">Browse all plugins</a></li>
<li><a href="/docs">API reference</a></li>
<li><a href="/openapi.json">OpenAPI document</a></li>
<li><a href="/api/v1/plugins">JSON API</a></li>
<li><a href="/plugins/feed.xml">RSS feed</a></li>
<li><a href="/plugins/feed.atom">Atom feed</a></li>
<li><a href="/plugins/feed.json">JSON Feed</a></li>
<li><a href="/market/manifest.json">Client-sync manifest</a></li>
<li><a href="/v0.1/servers">MCP registry API</a> (VS Code: <code>chat.mcp.gallery.serviceUrl</code>)</li>
</ul></nav>
<section aria-labelledby="stats">
<h2 id="stats">In the catalog</h2>
<dl class="stats">
<div><dt>plugins</dt><dd>${number(total)}</dd></div>
<div><dt>curated</dt><dd>${number(curated)}</dd></div>
<div><dt>categories</dt><dd>${number(categories)}</dd></div>
<div><dt>stars in all</dt><dd>${number(totalStars)}</dd></div>
</dl>
<p>Snapshot of <time datetime="${esc(at)}">${esc(at.slice(0, 16).replace("T", " "))} UTC</time>.</p>
</section>
<section aria-labelledby="newest">
<h2 id="newest">Newest plugins</h2>
<ul class="plugins">${newest.join("")}</ul>
</section>
<section aria-labelledby="picks">
<h2 id="picks">Editors' picks <span lang="zh">编辑精选</span></h2>
<ul class="plugins">${picks.join("")}</ul>
</section>
<section aria-labelledby="categories">
<h2 id="categories">Categories</h2>
<ul>${categoryLinks.join("")}</ul>
</section>
${authorsSection(snapshot, baseUrl)}`;
  return renderPage(page({ title: "Plugin Catalog", main, canonical: "/" }));
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

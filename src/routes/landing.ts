/**
 * GET /: the catalog for a person with a browser: what it is, its numbers, the newest plugins and
 * the editors' picks, and where the API, its reference, the feed and the manifest are. One HTML
 * page per snapshot, no script; every upstream string is escaped.
 */
import type { Snapshot } from "../catalog/snapshot";
import { type Rendered, render } from "../http/cache";
import { HTML_CSP } from "../http/headers";
import type { RouteDoc } from "../http/openapi";
import { TextSchema } from "../http/wireschemas";
import type { Answer, CatalogContext } from "./answer";
import { authorsSection } from "./authors";

const NEWEST_SHOWN = 10;
const PAGE_CACHE_CONTROL = "public, max-age=300";

const esc = (text: string) => Bun.escapeHTML(text);
const number = (n: number) => n.toLocaleString("en-US");

interface Pick {
  id: string;
  url: string;
  description: string;
  description_zh: string | null;
  stars: number;
}

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:0 auto;padding:1rem 1.5rem;color:#1b1b1b}
a{color:#0b57d0}h1{margin-bottom:.25rem}dl.stats{display:flex;flex-wrap:wrap;gap:1.5rem;margin:1rem 0}
dl.stats div{display:flex;flex-direction:column-reverse}dl.stats dd{margin:0;font-size:1.6rem;font-weight:600}
ul.plugins{list-style:none;padding:0}ul.plugins li{margin:.6rem 0}ul.plugins p{margin:.1rem 0;color:#444}
.hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%)}
nav ul{display:flex;flex-wrap:wrap;gap:1rem;list-style:none;padding:0}
footer{margin-top:2rem;color:#555;font-size:.9rem}pre{overflow-x:auto;background:#f4f4f4;padding:.5rem}`;

function pickItem(pick: Pick): string {
  const zh = pick.description_zh ? `<p lang="zh">${esc(pick.description_zh)}</p>` : "";
  const en = pick.description ? `<p>${esc(pick.description)}</p>` : "";
  const stars = `<span aria-hidden="true">★</span> ${number(pick.stars)}<span class="hidden"> stars</span>`;
  return `<li><a href="${esc(pick.url)}">${esc(pick.id)}</a> ${stars}${zh}${en}</li>`;
}

/** The page: a pure function of the snapshot and the base address. */
export function renderLanding(snapshot: Snapshot, baseUrl: string): Rendered {
  const { total, curated, categories, totalStars } = snapshot.stats;
  const newest = snapshot.newest(NEWEST_SHOWN).map((row) => {
    const about = row.description ? `<p>${esc(row.description)}</p>` : "";
    return `<li><a href="${esc(row.url)}">${esc(row.full_name)}</a>${about}</li>`;
  });
  const picked = snapshot.list({ q: null, category: null, curated: true, sort: "stars", offset: 0, limit: curated });
  const picks = picked.items.map((json) => pickItem(JSON.parse(json) as Pick));
  const at = snapshot.snapshotAt;
  const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Plugin Catalog</title>
<meta name="description" content="A public, read-only catalog of plugins for coding-agent harnesses.">
<link rel="icon" href="data:,">
<link rel="alternate" type="application/rss+xml" title="Newest plugins" href="${esc(baseUrl)}/plugins/feed.xml">
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>Plugin Catalog</h1>
<p>A public, read-only catalog of plugins for coding-agent harnesses: MCP servers, CLIs, agent workflows, skills
and hooks, each one a repository on GitHub. Read it as a JSON API, an RSS feed or a client-sync source; no account
or key is needed.</p>
<nav aria-label="Ways to read the catalog"><ul>
<li><a href="/docs">API reference</a></li>
<li><a href="/openapi.json">OpenAPI document</a></li>
<li><a href="/api/v1/plugins">JSON API</a></li>
<li><a href="/plugins/feed.xml">RSS feed</a></li>
<li><a href="/market/manifest.json">Client-sync manifest</a></li>
</ul></nav>
</header>
<main>
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
${authorsSection(snapshot, baseUrl)}
</main>
<footer><p>Repository facts from GitHub; descriptions belong to their authors.</p></footer>
</body>
</html>
`;
  const rendered = render(page, "text/html; charset=utf-8", PAGE_CACHE_CONTROL);
  rendered.headers["Content-Security-Policy"] = HTML_CSP;
  return rendered;
}

export const landingDoc: RouteDoc = {
  tag: "Documentation",
  summary: "The catalog's home page (HTML)",
  description: "What the catalog is, its numbers, the newest plugins, the editors' picks and links to everything else.",
  body: TextSchema,
  type: "text/html",
  cached: "snapshot",
};

// The 304 (null) is returned apart, which keeps the handler synchronous: see answer.ts.
export function landingHandlers(answer: Answer, baseUrl: string) {
  return {
    page: ({ request, set, note }: CatalogContext) => {
      const response = answer({ request, set, note }, "landing", renderLanding, baseUrl);
      if (response === null) return null;
      return response;
    },
  };
}

/**
 * What every HTML page shares: the head (stylesheet, feeds to follow, whose addresses live here),
 * the header with the search box, the footer, and the escaping every upstream string passes through.
 */
import { CACHE_CONTROL, type Rendered, render } from "../http/cache";
import { PAGE_CSP } from "../http/headers";
import { FEED_FORMATS, type FeedFormat, feedUrl } from "../http/paths";

export const HTML_TYPE = "text/html; charset=utf-8";

/** Text as HTML that shows it literally, in element content or a quoted attribute. */
export const esc = (text: string) => Bun.escapeHTML(text);

/** One formatter for every number: `toLocaleString` builds one per call. */
const NUMBER_FORMAT = new Intl.NumberFormat("en-US");
export const number = (n: number) => NUMBER_FORMAT.format(n);

/** `url` when it is an absolute http(s) address, else null: no other scheme becomes a link. */
export function webUrl(url: unknown): string | null {
  if (typeof url !== "string" || url === "") return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.href : null;
  } catch {
    return null;
  }
}

interface PageParts {
  title: string;
  /** A category whose feeds the page offers first (a category page, a search within one). */
  feedCategory?: { id: string; name: string } | null;
  /** Whether the page loads the script (typeahead, copy buttons). */
  script?: boolean;
  /** The search box's text. */
  q?: string | null;
  /** The page's address, for `<link rel="canonical">`. */
  canonical?: string;
  description?: string;
  main: string;
}

const FORMATS: FeedFormat[] = ["rss", "atom", "json"];

function feedLinks(category: PageParts["feedCategory"]): string {
  const links: string[] = [];
  if (category) {
    for (const format of FORMATS) {
      const title = `Newest in ${category.name} (${FEED_FORMATS[format].label})`;
      links.push(
        `<link rel="alternate" type="${FEED_FORMATS[format].type}" title="${esc(title)}" href="${esc(feedUrl(format, category.id))}">`,
      );
    }
  }
  for (const format of FORMATS) {
    const title = `Newest plugins (${FEED_FORMATS[format].label})`;
    links.push(`<link rel="alternate" type="${FEED_FORMATS[format].type}" title="${title}" href="${feedUrl(format)}">`);
  }
  return links.join("\n");
}

/** The search box of every page's header; its script adds suggestions as one types. */
function searchForm(q: string | null | undefined): string {
  return `<form class="search" role="search" action="/browse" method="get" data-suggest>
<div class="field"><label for="site-q">Search plugins</label>
<input type="search" id="site-q" name="q" value="${esc(q ?? "")}" maxlength="200" placeholder="name, owner, topic or words"></div>
<button type="submit">Search</button>
</form>`;
}

/** A whole page. */
export function page(parts: PageParts): string {
  const canonical = parts.canonical ? `\n<link rel="canonical" href="${esc(parts.canonical)}">` : "";
  const script = parts.script ? `\n<script src="/assets/site.js" defer></script>` : "";
  const description = parts.description ?? "A public, read-only catalog of plugins for coding-agent harnesses.";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(parts.title)}</title>
<meta name="description" content="${esc(description)}">
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/assets/site.css">${canonical}
${feedLinks(parts.feedCategory)}${script}
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="site"><div class="wrap">
<a class="brand" href="/">Plugin Catalog</a>
${searchForm(parts.q)}
</div></header>
<main id="main" class="wrap">
${parts.main}
</main>
<footer class="site"><div class="wrap">
<nav aria-label="Ways to read the catalog" class="links"><ul>
<li><a href="/browse">Browse all plugins</a></li>
<li><a href="/docs">API reference</a></li>
<li><a href="/plugins/feed.xml">RSS</a></li>
<li><a href="/plugins/feed.atom">Atom</a></li>
<li><a href="/plugins/feed.json">JSON Feed</a></li>
</ul></nav>
<p>Repository facts from GitHub; descriptions belong to their authors.</p>
</div></footer>
</body>
</html>
`;
}

/** A page rendered with the pages' policy. */
export function renderPage(html: string, status = 200): Rendered {
  const rendered = render(html, HTML_TYPE, CACHE_CONTROL, status);
  rendered.headers["Content-Security-Policy"] = PAGE_CSP;
  return rendered;
}

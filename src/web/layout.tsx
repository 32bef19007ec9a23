/** @jsxImportSource preact */
/**
 * What every HTML page shares: the head (stylesheet, feeds to follow, whose addresses live here),
 * the header with the search box and the footer. Pages are JSX rendered by preact, whose every
 * interpolation, text or attribute, is escaped: no upstream string can become markup.
 */
import type { ComponentChildren, JSX } from "preact";
import { renderToString } from "preact-render-to-string";
import { CACHE_CONTROL, type Rendered, render } from "../http/cache";
import { PAGE_CSP } from "../http/headers";
import { FEED_FORMATS, type FeedFormat, feedUrl } from "../http/paths";

export const HTML_TYPE = "text/html; charset=utf-8";

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

/** A star count, its word for screen readers only. */
export const Stars = ({ stars }: { stars: number }) => (
  <>
    <span aria-hidden="true">★</span> {number(stars)}
    <span class="hidden"> stars</span>
  </>
);

/** A date as people read it, the whole timestamp for machines. */
export const DateText = ({ at, length = 10 }: { at: string; length?: number }) => (
  <time dateTime={at}>{length === 10 ? at.slice(0, 10) : `${at.slice(0, length).replace("T", " ")} UTC`}</time>
);

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
  children: ComponentChildren;
}

const FORMATS: FeedFormat[] = ["rss", "atom", "json"];

function FeedLinks({ category }: { category: PageParts["feedCategory"] }) {
  const link = (title: string, format: FeedFormat, id?: string) => (
    <link rel="alternate" type={FEED_FORMATS[format].type} title={title} href={feedUrl(format, id ?? null)} />
  );
  return (
    <>
      {category
        ? FORMATS.map((f) => link(`Newest in ${category.name} (${FEED_FORMATS[f].label})`, f, category.id))
        : null}
      {FORMATS.map((f) => link(`Newest plugins (${FEED_FORMATS[f].label})`, f))}
    </>
  );
}

/** The search box of every page's header; its script adds suggestions as one types. */
const SearchForm = ({ q }: { q: string | null | undefined }) => (
  // biome-ignore lint/a11y/useSemanticElements: the search landmark on the form itself, as the older readers know it
  <form class="search" role="search" action="/browse" method="get" data-suggest="">
    <div class="field">
      <label for="site-q">Search plugins</label>
      <input
        type="search"
        id="site-q"
        name="q"
        value={q ?? ""}
        maxLength={200}
        placeholder="name, owner, topic or words"
      />
    </div>
    <button type="submit">Search</button>
  </form>
);

const DESCRIPTION = "A public, read-only catalog of plugins for coding-agent harnesses.";

/** A whole page. */
export const Page = (parts: PageParts) => (
  <html lang="en">
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <title>{parts.title}</title>
      <meta name="description" content={parts.description ?? DESCRIPTION} />
      <link rel="icon" href="data:," />
      <link rel="stylesheet" href="/assets/site.css" />
      {parts.canonical ? <link rel="canonical" href={parts.canonical} /> : null}
      <FeedLinks category={parts.feedCategory} />
      {parts.script ? <script src="/assets/site.js" defer /> : null}
    </head>
    <body>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="site">
        <div class="wrap">
          <a class="brand" href="/">
            Plugin Catalog
          </a>
          <SearchForm q={parts.q} />
        </div>
      </header>
      <main id="main" class="wrap">
        {parts.children}
      </main>
      <footer class="site">
        <div class="wrap">
          <nav aria-label="Ways to read the catalog" class="links">
            <ul>
              <li>
                <a href="/browse">Browse all plugins</a>
              </li>
              <li>
                <a href="/docs">API reference</a>
              </li>
              {FORMATS.map((f) => (
                <li>
                  <a href={feedUrl(f)}>{FEED_FORMATS[f].label}</a>
                </li>
              ))}
            </ul>
          </nav>
          <p>Repository facts from GitHub; descriptions belong to their authors.</p>
        </div>
      </footer>
    </body>
  </html>
);

/** A page rendered with the pages' policy. */
export function renderPage(page: JSX.Element, status = 200): Rendered {
  const rendered = render(`<!doctype html>\n${renderToString(page)}\n`, HTML_TYPE, CACHE_CONTROL, status);
  rendered.headers["Content-Security-Policy"] = PAGE_CSP;
  return rendered;
}

/** GET /plugins/feed.xml (contract 4.3): RSS 2.0 of the 50 newest plugins, rendered once per snapshot. */
import { Feed } from "feed";
import type { Snapshot } from "../catalog/snapshot";
import { type Rendered, render } from "../http/cache";
import type { RouteDoc } from "../http/openapi";
import { TextSchema } from "../http/wireschemas";
import type { Answer, CatalogContext } from "./answer";

export const FEED_LENGTH = 50;
export const FEED_TTL_MINUTES = 60;
const FEED_TYPE = "application/rss+xml; charset=utf-8";
const FEED_CACHE_CONTROL = "public, max-age=3600";

/**
 * Characters XML 1.0 forbids (C0 controls but tab and line breaks, U+FFFE/U+FFFF, lone surrogates)
 * and the bidi overrides that would reorder a reader's page: a snapshot built before the upstream
 * gate may still hold them, so the feed drops them on output.
 */
const NOT_IN_FEED = new RegExp(
  "[\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u202A-\\u202E\\u2066-\\u2069\\uFFFE\\uFFFF]" +
    "|[\\uD800-\\uDBFF](?![\\uDC00-\\uDFFF])|(?<![\\uD800-\\uDBFF])[\\uDC00-\\uDFFF]",
  "g",
);
const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
  "\r": "&#13;",
};

/** Text as the feed may carry it: without the characters above. */
export function feedPlainText(text: string): string {
  return text.replace(NOT_IN_FEED, "");
}

/**
 * Text for an RSS title or description, which readers render as HTML: escaped, so markup in it
 * stays text and no `]]>` can end the library's CDATA section early (a CR is kept as `&#13;`, which
 * XML's line-end rule would otherwise turn into a LF).
 */
export function feedHtmlText(text: string): string {
  return feedPlainText(text).replace(/[&<>"'\r]/g, (c) => HTML_ESCAPES[c]!);
}

/** The item link: the plugin's address when it is an http(s) URL, else its page in this API. */
function itemLink(url: string, id: string, baseUrl: string): string {
  try {
    const parsed = new URL(feedPlainText(url));
    if (parsed.protocol === "http:" || parsed.protocol === "https:") return parsed.href;
  } catch {
    // Not a URL: the API's own page of the plugin below.
  }
  return `${baseUrl}/api/v1/plugins/${id.split("/").map(encodeURIComponent).join("/")}`;
}

/** The feed document: a pure function of the snapshot and the base address. */
export function renderFeed(snapshot: Snapshot, baseUrl: string): Rendered {
  const feed = new Feed({
    title: "Plugin Catalog: newest plugins",
    description:
      "Plugins for coding-agent harnesses (MCP servers, CLIs, agent workflows, skills, hooks), newest first.",
    id: baseUrl,
    // The home page, which a reader's "visit site" opens.
    link: `${baseUrl}/`,
    feedLinks: { rss: `${baseUrl}/plugins/feed.xml` },
    updated: new Date(snapshot.snapshotAt),
    ttl: FEED_TTL_MINUTES,
    language: "en",
    generator: "plugin-catalog",
    copyright: "Repository facts from the hosting platform; descriptions belong to their authors.",
  });
  for (const row of snapshot.newest(FEED_LENGTH)) {
    feed.addItem({
      title: feedHtmlText(row.full_name),
      // With neither guid nor id, the library writes guid = link with isPermaLink="true".
      link: itemLink(row.url, row.full_name, baseUrl),
      description: feedHtmlText(row.description),
      date: new Date(row.first_seen_at),
      category: (JSON.parse(row.categories) as string[]).map((name) => ({ name: feedPlainText(name) })),
    });
  }
  return render(feed.rss2(), FEED_TYPE, FEED_CACHE_CONTROL);
}

export const feedDoc: RouteDoc = {
  tag: "Feed",
  summary: "RSS 2.0 feed of the 50 newest plugins",
  description:
    "Newest = most recently first seen in the catalog. Items: title = full_name, link and permalink guid = " +
    "the repository URL, description, pubDate = first seen, one category per category id. Cached for an hour.",
  body: TextSchema,
  type: FEED_TYPE.split(";")[0],
  cached: "snapshot",
};

// The 304 (null) is returned apart, which keeps the handler synchronous: see answer.ts.
export function feedHandlers(answer: Answer, baseUrl: string) {
  return {
    rss: ({ request, set, note }: CatalogContext) => {
      const response = answer({ request, set, note }, "feed", renderFeed, baseUrl);
      if (response === null) return null;
      return response;
    },
  };
}

/** GET /plugins/feed.xml (contract 4.3): RSS 2.0 of the 50 newest plugins, rendered once per snapshot. */
import { Feed } from "feed";
import type { Snapshot } from "../catalog/snapshot";
import { type Rendered, render } from "../http/cache";
import { feedText, xmlChars } from "../http/feed-text";
import type { RouteDoc } from "../http/openapi";
import { TextSchema } from "../http/wireschemas";
import type { Answer, CatalogContext } from "./answer";

export const FEED_LENGTH = 50;
export const FEED_TTL_MINUTES = 60;
const FEED_TYPE = "application/rss+xml; charset=utf-8";
const FEED_CACHE_CONTROL = "public, max-age=3600";

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
      title: feedText(row.full_name),
      // With neither guid nor id, the library writes guid = link with isPermaLink="true".
      link: row.url,
      description: feedText(row.description),
      date: new Date(row.first_seen_at),
      category: (JSON.parse(row.categories) as string[]).map((name) => ({ name: xmlChars(name) })),
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

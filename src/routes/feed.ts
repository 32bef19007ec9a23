/** GET /plugins/feed.xml (contract 4.3): RSS 2.0 of the 50 newest plugins, rendered once per snapshot. */
import { Elysia } from "elysia";
import { Feed } from "feed";
import type { Snapshot } from "../catalog/snapshot";
import type { CatalogStore } from "../catalog/store";
import { render, type Rendered } from "../http/cache";
import { answer } from "./snapshot";

export const FEED_LENGTH = 50;
export const FEED_TTL_MINUTES = 60;
const FEED_TYPE = "application/rss+xml; charset=utf-8";
const FEED_CACHE_CONTROL = "public, max-age=3600";

/** The feed document: a pure function of the snapshot and the base address. */
export function renderFeed(snapshot: Snapshot, baseUrl: string): Rendered {
  const feed = new Feed({
    title: "Plugin Catalog: newest plugins",
    description: "Plugins for coding-agent harnesses (MCP servers, CLIs, agent workflows, skills, hooks), newest first.",
    id: baseUrl,
    link: baseUrl,
    feedLinks: { rss: `${baseUrl}/plugins/feed.xml` },
    updated: new Date(snapshot.snapshotAt),
    ttl: FEED_TTL_MINUTES,
    language: "en",
    generator: "plugin-catalog",
    copyright: "Repository facts from the hosting platform; descriptions belong to their authors.",
  });
  for (const row of snapshot.newest(FEED_LENGTH)) {
    feed.addItem({
      title: row.full_name,
      // With neither guid nor id, the library writes guid = link with isPermaLink="true".
      link: row.url,
      description: row.description,
      date: new Date(row.first_seen_at),
      category: (JSON.parse(row.categories) as string[]).map((name) => ({ name })),
    });
  }
  return render(feed.rss2(), FEED_TYPE, FEED_CACHE_CONTROL);
}

// The handler returns a 304 (null: its status and headers are in `set`) apart from other answers,
// which keeps it synchronous to Elysia: see snapshot.ts.
export function feedRoutes(store: CatalogStore, baseUrl: string) {
  return new Elysia({ name: "routes.feed" }).get("/plugins/feed.xml", ({ request, set }) => {
    const response = answer(store, request, set, "feed", renderFeed, baseUrl);
    if (response === null) return null;
    return response;
  });
}

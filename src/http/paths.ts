/** The service's own addresses that pages, feeds and documents link to: the feeds, a plugin's page, a category's page. */

export type FeedFormat = "rss" | "atom" | "json";

/** Each format's path and media type. */
export const FEED_FORMATS: Record<FeedFormat, { path: string; type: string; label: string }> = {
  rss: { path: "/plugins/feed.xml", type: "application/rss+xml", label: "RSS" },
  atom: { path: "/plugins/feed.atom", type: "application/atom+xml", label: "Atom" },
  json: { path: "/plugins/feed.json", type: "application/feed+json", label: "JSON Feed" },
};

/** A feed's address, of one category when given. */
export function feedUrl(format: FeedFormat, category: string | null = null, base = ""): string {
  const path = `${base}${FEED_FORMATS[format].path}`;
  return category === null ? path : `${path}?category=${encodeURIComponent(category)}`;
}

/** The path of a plugin's page. */
export function pluginPath(id: string): string {
  const [owner = "", repo = ""] = id.split("/");
  return `/plugin/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`;
}

/** The path of a category's page. */
export const categoryPath = (id: string) => `/categories/${encodeURIComponent(id)}`;

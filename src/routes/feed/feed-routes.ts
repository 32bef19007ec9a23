/**
 * The feeds of the 50 newest plugins, of the whole catalog or of one category (`category=<id>`):
 * GET /plugins/feed.xml (RSS 2.0), /plugins/feed.atom (Atom 1.0) and
 * /plugins/feed.json (JSON Feed 1.1), each written by the `feed` library with the same items and
 * escaping, rendered once per snapshot, format and category.
 */
import { Type as t } from "@sinclair/typebox";
import { Feed } from "feed";
import type { Snapshot } from "../../catalog/snapshot/snapshot";
import type { Answer } from "../../http/answer";
import { type Rendered, render } from "../../http/cache";
import { badRequest, notFound } from "../../http/errors";
import type { RouteDoc } from "../../http/openapi";
import { FEED_FORMATS, type FeedFormat, feedUrl } from "../../http/paths";
import { TextSchema } from "../../http/wire-schemas";
import { feedText, xmlChars } from "../../http/xml-text";

const FEED_LENGTH = 50;
const FEED_TTL_MINUTES = 60;
const FEED_CACHE_CONTROL = "public, max-age=3600";

const AUTHOR = { name: "Plugin Catalog" };

function feedOf(snapshot: Snapshot, baseUrl: string, category: string | null, format: FeedFormat): Feed {
  const info = category === null ? null : snapshot.categories.find((c) => c.id === category)!;
  const feed = new Feed({
    title:
      info === null ? "Plugin Catalog: newest plugins" : `Plugin Catalog: newest plugins in ${xmlChars(info.name)}`,
    description:
      info === null
        ? "Plugins for coding-agent harnesses (MCP servers, CLIs, agent workflows, skills, hooks), newest first."
        : `${xmlChars(info.description)} Newest first.`,
    id: category === null ? baseUrl : feedUrl(format, category, baseUrl),
    // The page a reader's "visit site" opens: the home page, or the category's page.
    link: category === null ? `${baseUrl}/` : `${baseUrl}/categories/${encodeURIComponent(category)}`,
    feedLinks: { [format]: feedUrl(format, category, baseUrl) },
    updated: new Date(snapshot.snapshotAt),
    ttl: FEED_TTL_MINUTES,
    language: "en",
    generator: "plugin-catalog",
    copyright: "Repository facts from the hosting platform; descriptions belong to their authors.",
    // Atom asks a feed for an author when its entries have none.
    ...(format === "rss" ? {} : { author: AUTHOR }),
  });
  for (const row of snapshot.newest(FEED_LENGTH, category)) {
    const ids = JSON.parse(row.categories) as string[];
    feed.addItem({
      // JSON Feed's title is plain text; RSS and Atom readers render theirs as HTML.
      title: format === "json" ? xmlChars(row.full_name) : feedText(row.full_name),
      // With neither guid nor id, the RSS writer makes guid = link with isPermaLink="true".
      link: row.url,
      description: feedText(row.description),
      date: new Date(row.first_seen_at),
      category: ids.map((name) =>
        format === "atom" ? { name: xmlChars(name), term: xmlChars(name) } : { name: xmlChars(name) },
      ),
    });
  }
  return feed;
}

/** The library writes JSON Feed 1; these are the changes 1.1 asks for. */
function jsonFeed11(feed: Feed): string {
  const doc = JSON.parse(feed.json1()) as Record<string, unknown> & { items: Array<Record<string, unknown>> };
  const { author, ...rest } = doc;
  // An item's id is its repository's address; first seen is when it was published to the catalog.
  const items = doc.items.map(({ date_modified, ...item }) => ({
    id: item.url,
    ...item,
    date_published: date_modified,
  }));
  return JSON.stringify({
    ...rest,
    version: "https://jsonfeed.org/version/1.1",
    language: "en",
    authors: author ? [author] : [AUTHOR],
    items,
  });
}

/** The feed document: a pure function of the snapshot, the base address, the format and the category. */
export function renderFeed(
  snapshot: Snapshot,
  baseUrl: string,
  category: string | null = null,
  format: FeedFormat = "rss",
): Rendered {
  const feed = feedOf(snapshot, baseUrl, category, format);
  const body = format === "rss" ? feed.rss2() : format === "atom" ? feed.atom1() : jsonFeed11(feed);
  return render(body, `${FEED_FORMATS[format].type}; charset=utf-8`, FEED_CACHE_CONTROL);
}

/** The feed's category: null for the whole catalog; 400 given twice. */
function feedCategory(query: URLSearchParams): string | null {
  const values = query.getAll("category");
  if (values.length > 1) throw badRequest("category", "give it at most once");
  return values[0] || null;
}

const ITEMS_RULE =
  "Newest = most recently first seen in the catalog. Items: title = full_name, link (and id) = the repository " +
  "URL, description, date = first seen, one category per category id. `category=<id>` gives the 50 newest of " +
  "that category. Cached for an hour.";

function feedDocOf(format: FeedFormat, summary: string, lead: string): RouteDoc<Snapshot> {
  return {
    tag: "Feed",
    summary,
    description: `${lead} ${ITEMS_RULE}`,
    query: (snapshot) =>
      t.Object({
        category: t.Optional(
          t.String({
            examples: [...snapshot.categoryIds],
            description: `Only this category's newest plugins: one of ${[...snapshot.categoryIds].join(", ")}; another id is a 404.`,
          }),
        ),
      }),
    body: TextSchema,
    type: FEED_FORMATS[format].type,
    cached: "snapshot",
    more: { 404: { description: "No such category.", message: notFound("Category unknown-id").message } },
  };
}

export const feedDoc = feedDocOf("rss", "RSS 2.0 feed of the 50 newest plugins", "RSS 2.0; guid = link, a permalink.");
export const atomFeedDoc = feedDocOf("atom", "Atom 1.0 feed of the 50 newest plugins", "Atom 1.0.");
export const jsonFeedDoc = feedDocOf("json", "JSON Feed 1.1 of the 50 newest plugins", "JSON Feed 1.1.");

/** The feeds of one format, 404 for an unknown category. */
function feedPage(format: FeedFormat, baseUrl: string) {
  return (snapshot: Snapshot, category: string | null): Rendered => {
    if (category !== null && !snapshot.categoryIds.has(category)) throw notFound(`Category ${category}`);
    return renderFeed(snapshot, baseUrl, category, format);
  };
}

export function feedHandlers(answer: Answer, baseUrl: string) {
  const handler = (format: FeedFormat) => answer.route(`feed:${format}`, feedCategory, feedPage(format, baseUrl));
  return { rss: handler("rss"), atom: handler("atom"), json: handler("json") };
}

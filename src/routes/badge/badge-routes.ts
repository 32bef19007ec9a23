/**
 * GET /badge/:owner/:repo.svg and .json: a README badge saying whether a repository is listed, as
 * an SVG or in the shields.io endpoint schema. A renamed plugin's former id shows its listing (no
 * redirect: an image proxy would not follow it). Not rate limited: image proxies fetch for many
 * readers from few addresses, and every answer is one of a few renderings per listed plugin.
 */
import { Type as t } from "@sinclair/typebox";
import { LRUCache } from "lru-cache";
import { BADGE_FILE_PATTERN, OWNER_PATTERN } from "../../catalog/model/names";
import { known } from "../../catalog/snapshot/known";
import type { Snapshot } from "../../catalog/snapshot/snapshot";
import type { Answer } from "../../http/answer";
import { CACHE_CONTROL, JSON_TYPE, type Rendered, render } from "../../http/cache";
import { badRequest, HttpError } from "../../http/errors";
import type { RouteDoc } from "../../http/openapi";
import { checkedId } from "../../http/repo-id";
import { stringEnum, TextSchema } from "../../http/wire-schemas";
import { type Badge, badgeSvg } from "./svg";

const SHOWS = ["listed", "category", "stars"] as const;
type Show = (typeof SHOWS)[number];
const FORMATS = ["svg", "json"] as const;
type Format = (typeof FORMATS)[number];

const SVG_TYPE = "image/svg+xml; charset=utf-8";
const LABEL = "plugin catalog";
const LISTED = { hex: "#44cc11", name: "brightgreen" };
const NOT_LISTED = { hex: "#9f9f9f", name: "lightgrey" };

/** A badge's canonical arguments: every repository not listed shares one rendering per form. */
interface BadgeArg {
  /** The listed plugin's current id, or null when the repository is not listed. */
  id: string | null;
  format: Format;
  show: Show;
}

/** 1234 → `1.2k`, as badges write counts. */
function compact(n: number): string {
  if (n < 1000) return String(n);
  const [value, unit] = n < 1_000_000 ? [n / 1000, "k"] : [n / 1_000_000, "M"];
  return `${value < 10 ? value.toFixed(1).replace(/\.0$/, "") : Math.round(value)}${unit}`;
}

/** What the badge says. */
function badgeOf(snapshot: Snapshot, { id, show }: BadgeArg): Badge & { colorName: string } {
  const plugin = id === null ? null : known(snapshot, id).plugin;
  if (plugin === null)
    return { label: LABEL, message: "not listed", color: NOT_LISTED.hex, colorName: NOT_LISTED.name };
  const category = snapshot.categories.find((c) => c.id === plugin.category)?.name ?? plugin.category;
  const message = show === "category" ? category : show === "stars" ? `listed · ★ ${compact(plugin.stars)}` : "listed";
  return { label: LABEL, message, color: LISTED.hex, colorName: LISTED.name };
}

/** Names remembered per snapshot: a flood of distinct ones costs lookups, never the response cache's room. */
const REMEMBERED_NAMES = 50_000;

/**
 * Reads a badge's request: 404 for a file of another form, 400 for a bad name or `show`. Whether
 * a name is listed, and as which id, is looked up once per snapshot and remembered.
 */
function badgeParser() {
  let of: Snapshot | null = null;
  let listedAs = new LRUCache<string, string>({ max: REMEMBERED_NAMES });
  return (query: URLSearchParams, snapshot: Snapshot, path: { owner: string; file: string }): BadgeArg => {
    const { repo, format } = parseFile(path.file);
    const asked = checkedId(path.owner, repo);
    const show = parseShow(query);
    if (snapshot !== of) {
      of = snapshot;
      listedAs = new LRUCache({ max: REMEMBERED_NAMES });
    }
    const name = asked.toLowerCase();
    let listed = listedAs.get(name);
    if (listed === undefined) {
      const k = known(snapshot, asked);
      listed = k.status === "listed" ? k.id : "";
      listedAs.set(name, listed);
    }
    return listed === "" ? { id: null, format, show: "listed" } : { id: listed, format, show };
  };
}

function renderBadge(snapshot: Snapshot, arg: BadgeArg): Rendered {
  const badge = badgeOf(snapshot, arg);
  if (arg.format === "json") {
    const body = { schemaVersion: 1, label: badge.label, message: badge.message, color: badge.colorName };
    return render(JSON.stringify(body), JSON_TYPE, CACHE_CONTROL);
  }
  return render(badgeSvg(badge), SVG_TYPE, CACHE_CONTROL);
}

/** `<repo>.svg` or `<repo>.json` split; 404 for any other file. */
function parseFile(file: string): { repo: string; format: Format } {
  const dot = file.lastIndexOf(".");
  const format = file.slice(dot + 1) as Format;
  if (dot <= 0 || !FORMATS.includes(format)) {
    throw new HttpError(404, `No such badge: ${file.slice(0, 200)}; ask for <repo>.svg or <repo>.json.`);
  }
  return { repo: file.slice(0, dot), format };
}

function parseShow(query: URLSearchParams): Show {
  const show = query.get("show") || "listed";
  if (!(SHOWS as readonly string[]).includes(show)) throw badRequest("show", `one of ${SHOWS.join(", ")}`);
  return show as Show;
}

const ShieldsSchema = t.Object(
  {
    schemaVersion: t.Literal(1),
    label: t.String(),
    message: t.String(),
    color: t.String(),
  },
  { additionalProperties: false, description: "The shields.io endpoint schema." },
);

export const badgeDoc: RouteDoc<Snapshot> = {
  tag: "For plugin authors",
  summary: "A README badge: listed or not (SVG, or JSON for shields.io)",
  description:
    "`file` is `<repo>.svg` (a self-contained flat badge, 20 px high) or `<repo>.json` (the shields.io endpoint " +
    "schema). Listed plugins get a green badge, every other repository a grey `not listed`; a former id of a " +
    "renamed plugin gets its badge, without a redirect. Not rate limited.",
  params: t.Object({
    owner: t.String({ description: "Repository owner.", pattern: OWNER_PATTERN, examples: ["modelcontextprotocol"] }),
    file: t.String({
      description: "`<repo>.svg` or `<repo>.json`.",
      pattern: BADGE_FILE_PATTERN,
      examples: ["servers.svg"],
    }),
  }),
  query: t.Object({
    show: t.Optional(
      stringEnum(SHOWS, {
        description: "What a listed plugin's badge says: `listed` (when absent), its category or its stars.",
      }),
    ),
  }),
  body: t.Union([TextSchema, ShieldsSchema]),
  type: ["image/svg+xml", "application/json"],
  cached: "snapshot",
  more: {
    404: {
      description: "`file` ends in neither `.svg` nor `.json`.",
      message: "No such badge: servers.png; ask for <repo>.svg or <repo>.json.",
    },
  },
};

export function badgeHandlers(answer: Answer) {
  return { badge: answer.route("badge", badgeParser(), renderBadge) };
}

/**
 * The catalog for people, as server-rendered HTML that needs no script:
 * GET /browse (search, filters and pages with the list API's parameters), GET /categories/{id}
 * (one category), GET /plugin/{owner}/{repo} (one plugin; a former id redirects). Each page is a
 * pure function of the snapshot and its canonical parameters, cached per snapshot like the JSON.
 */
import { Type as t } from "@sinclair/typebox";
import { INCLUDE_PARTS } from "../catalog/model/details";
import type { CategoryInfo } from "../catalog/model/types";
import type { PluginView } from "../catalog/model/wire";
import { SORTS, type Sort } from "../catalog/search/orders";
import type { Snapshot } from "../catalog/snapshot/snapshot";
import type { Answer } from "../http/answer";
import type { Rendered } from "../http/cache";
import { badRequest, type HttpError } from "../http/errors";
import { secured } from "../http/headers";
import type { MoreStatus, RouteDoc } from "../http/openapi";
import { filtersSchema, LIST_PAGE_SIZE, type ListParams, parseListParams } from "../http/params";
import { categoryPath, pluginPath } from "../http/paths";
import type { RequestNote } from "../http/requestlog";
import { stringEnum, TextSchema } from "../http/wireschemas";
import { esc, HTML_TYPE, number, page, renderPage, webUrl } from "./layout";

const SORT_LABELS: Record<Sort, string> = {
  default: "Best match",
  name: "Name",
  stars: "Stars",
  forks: "Forks",
  updated: "Recently pushed",
  heat: "Heat (popular and active)",
  newest: "Newest in the catalog",
};

/**
 * A listing's parameters: the list API's, bar `pageSize`, `include` and `snapshot`; 400 when
 * malformed. The category is checked against the snapshot when the page is rendered.
 */
export function parseBrowse(params: URLSearchParams, category: string | null = null): ListParams {
  params.delete("pageSize");
  params.delete("include");
  const p = parseListParams(params, null);
  return category === null ? p : { ...p, category };
}

/** The canonical query string of `p` (defaults left out, a fixed order), without the category when it is in the path. */
export function browseQuery(p: ListParams, withCategory: boolean, pageNumber = p.page): string {
  const out = new URLSearchParams();
  if (p.q !== null) out.set("q", p.q);
  if (withCategory && p.category !== null) out.set("category", p.category);
  if (p.curated) out.set("curated", "1");
  if (p.archived !== null) out.set("archived", String(p.archived));
  if (p.has.length > 0) out.set("has", p.has.join(","));
  if (p.harness !== null) out.set("harness", p.harness);
  if (p.original) out.set("original", "1");
  if (p.sort !== "default") out.set("sort", p.sort);
  if (pageNumber !== 1) out.set("page", String(pageNumber));
  const text = out.toString();
  return text === "" ? "" : `?${text}`;
}

/** What the plugin record may carry beyond the full form (install, contents, flags, works_with). */
type PluginRecordView = PluginView & Record<string, unknown>;

function starsText(stars: number): string {
  return `<span aria-hidden="true">★</span> ${number(stars)}<span class="hidden"> stars</span>`;
}

function categoryName(snapshot: Snapshot, id: string): string {
  return snapshot.categories.find((c) => c.id === id)?.name ?? id;
}

function pluginItem(snapshot: Snapshot, p: PluginView): string {
  const zh = p.description_zh ? `<p lang="zh">${esc(p.description_zh)}</p>` : "";
  const en = p.description ? `<p>${esc(p.description)}</p>` : "";
  const meta = [`<li>${starsText(p.stars)}</li>`];
  if (p.language) meta.push(`<li>${esc(p.language)}</li>`);
  meta.push(`<li>${esc(categoryName(snapshot, p.category))}</li>`);
  if (p.archived) meta.push(`<li><span class="flag">archived</span></li>`);
  meta.push(`<li>pushed <time datetime="${esc(p.pushed_at)}">${esc(p.pushed_at.slice(0, 10))}</time></li>`);
  return `<li><h3><a href="${esc(pluginPath(p.id))}">${esc(p.full_name)}</a></h3>${en}${zh}<ul class="meta">${meta.join("")}</ul></li>`;
}

function options(values: ReadonlyArray<[string, string]>, selected: string): string {
  return values
    .map(
      ([value, label]) =>
        `<option value="${esc(value)}"${value === selected ? " selected" : ""}>${esc(label)}</option>`,
    )
    .join("");
}

/** Hidden fields that keep `has`, `harness` and `original` through the form, which has no control for them. */
function keptFilters(p: ListParams): string {
  const hidden = (name: string, value: string) => `<input type="hidden" name="${name}" value="${esc(value)}">`;
  return (
    (p.has.length > 0 ? hidden("has", p.has.join(",")) : "") +
    (p.harness !== null ? hidden("harness", p.harness) : "") +
    (p.original ? hidden("original", "1") : "")
  );
}

/** The filters of a listing; on a category page the category is the page's own. */
function filterForm(snapshot: Snapshot, p: ListParams, action: string, inCategory: boolean): string {
  const categorySelect = inCategory
    ? ""
    : `<div class="field"><label for="f-category">Category</label><select id="f-category" name="category">${options(
        [["", "All categories"], ...snapshot.categories.map((c): [string, string] => [c.id, c.name])],
        p.category ?? "",
      )}</select></div>`;
  const archived = p.archived === null ? "" : String(p.archived);
  return `<form class="filters" action="${esc(action)}" method="get" aria-label="Filters">
${p.q !== null ? `<input type="hidden" name="q" value="${esc(p.q)}">` : ""}
${keptFilters(p)}${categorySelect}
<div class="field"><label for="f-sort">Sort by</label><select id="f-sort" name="sort">${options(
    SORTS.map((s): [string, string] => [s, SORT_LABELS[s]]),
    p.sort,
  )}</select></div>
<div class="field"><label for="f-archived">Archived</label><select id="f-archived" name="archived">${options(
    [
      ["", "Included"],
      ["false", "Left out"],
      ["true", "Only archived"],
    ],
    archived,
  )}</select></div>
<label class="check"><input type="checkbox" name="curated" value="1"${p.curated ? " checked" : ""}> Editors' picks only</label>
<button type="submit">Apply</button>
</form>`;
}

function pagination(base: string, p: ListParams, total: number, inCategory: boolean): string {
  const pages = Math.max(1, Math.ceil(total / p.pageSize));
  if (pages === 1 && p.page === 1) return "";
  const link = (n: number) => `${base}${browseQuery(p, !inCategory, n)}`;
  const prev = p.page > 1 ? `<a rel="prev" href="${esc(link(Math.min(p.page - 1, pages)))}">← Previous page</a>` : "";
  const next = p.page < pages ? `<a rel="next" href="${esc(link(p.page + 1))}">Next page →</a>` : "";
  return `<nav class="pages" aria-label="Pages">${prev}<span>Page ${number(p.page)} of ${number(pages)}</span>${next}</nav>`;
}

/** What an empty result offers: the search without its filters, shorter words, the categories. */
function emptyState(snapshot: Snapshot, p: ListParams, inCategory: boolean, hasMore: boolean): string {
  if (hasMore) {
    return `<div class="empty"><p>This page is past the last one.</p><p><a href="${esc(`${inCategory ? categoryPath(p.category!) : "/browse"}${browseQuery({ ...p, page: 1 }, !inCategory)}`)}">Back to the first page</a></p></div>`;
  }
  const tips: string[] = [];
  const filtered =
    p.category !== null || p.curated || p.archived !== null || p.has.length > 0 || p.harness !== null || p.original;
  if (p.q !== null && filtered) {
    tips.push(
      `<li><a href="/browse${browseQuery({ ...p, category: null, curated: false, archived: null, has: [], harness: null, original: false, page: 1 }, true)}">Search “${esc(p.q)}” in every category, without filters</a></li>`,
    );
  }
  if (p.q !== null) {
    // "Did you mean": the search with a word that matches nothing replaced by a near word of the index.
    const alternatives = snapshot.suggestions(p.q, 3).map((text) => {
      const href = `${inCategory ? categoryPath(p.category!) : "/browse"}${browseQuery({ ...p, q: text, page: 1 }, !inCategory)}`;
      return `<a href="${esc(href)}">${esc(text)}</a>`;
    });
    if (alternatives.length > 0) tips.push(`<li>Did you mean ${alternatives.join(", ")}?</li>`);
    tips.push(
      "<li>Use fewer or shorter words: every word must match, and the last one may be the start of a word (<code>postg</code> finds <code>postgres</code>).</li>",
    );
    tips.push(
      "<li>Search an owner or a full name as it is written: <code>anthropics</code>, <code>obra/superpowers</code>.</li>",
    );
  }
  const categories = snapshot.categories
    .map((c) => `<li><a href="${esc(categoryPath(c.id))}">${esc(c.name)}</a></li>`)
    .join("");
  const what =
    p.q !== null
      ? `No plugin matches “${esc(p.q)}”${filtered ? " with these filters" : ""}.`
      : "No plugin matches these filters.";
  return `<div class="empty" role="status"><p><strong>${what}</strong></p>${tips.length ? `<ul>${tips.join("")}</ul>` : ""}
<p>Or browse a category:</p><ul class="tags">${categories}</ul></div>`;
}

function notFoundPage(title: string, message: string, q: string | null = null): Rendered {
  const main = `<h1>${esc(title)}</h1><p>${message}</p><p><a href="/browse">Browse all plugins</a> or <a href="/">go to the home page</a>.</p>`;
  return renderPage(page({ title: `${title} — Plugin Catalog`, main, q }), 404);
}

/** A listing: the search page, or a category's page when `category` is its path's. */
function listing(snapshot: Snapshot, p: ListParams, inCategory: boolean): Rendered {
  const info: CategoryInfo | null =
    p.category === null ? null : (snapshot.categories.find((c) => c.id === p.category) ?? null);
  if (p.category !== null && info === null && !inCategory) {
    return renderPage(badRequestPage(badRequest("category", `one of ${[...snapshot.categoryIds].join(", ")}`)), 400);
  }
  if (p.category !== null && info === null) {
    const known = snapshot.categories.map((c) => `<a href="${esc(categoryPath(c.id))}">${esc(c.name)}</a>`);
    return notFoundPage(
      "No such category",
      `The catalog has no category “${esc(p.category)}”. Its categories: ${known.join(", ")}.`,
    );
  }
  const result = snapshot.list(p);
  const items = result.items.map((json) => pluginItem(snapshot, JSON.parse(json) as PluginView));
  const base = inCategory ? categoryPath(info!.id) : "/browse";
  const heading = inCategory
    ? `<h1>${esc(info!.name)} <span lang="zh">${esc(info!.name_zh)}</span></h1><p>${esc(info!.description)}</p>
<p>Follow this category: <a href="${esc(`/plugins/feed.xml?category=${encodeURIComponent(info!.id)}`)}">RSS</a>, <a href="${esc(`/plugins/feed.atom?category=${encodeURIComponent(info!.id)}`)}">Atom</a>, <a href="${esc(`/plugins/feed.json?category=${encodeURIComponent(info!.id)}`)}">JSON Feed</a>.</p>`
    : `<h1>${p.q !== null ? `Plugins matching “${esc(p.q)}”` : "All plugins"}${info ? ` in ${esc(info.name)}` : ""}</h1>`;
  const corrected =
    result.corrected !== undefined
      ? `<p class="note" role="status">No plugin matches “${esc(p.q!)}”; showing the results for “<strong>${esc(result.corrected)}</strong>”.</p>`
      : "";
  const first = p.offset + 1;
  const summary =
    items.length > 0
      ? `<p role="status"><strong>${number(result.total)}</strong> ${result.total === 1 ? "plugin" : "plugins"}; showing ${number(first)}–${number(first + items.length - 1)}.</p>`
      : "";
  const list =
    items.length > 0
      ? `<ul class="plugins">${items.join("")}</ul>`
      : emptyState(snapshot, p, inCategory, result.total > 0);
  const main = `${heading}
${filterForm(snapshot, p, base, inCategory)}
${corrected}${summary}
<section aria-label="Results">${list}</section>
${pagination(base, p, result.total, inCategory)}`;
  const title = inCategory ? info!.name : p.q !== null ? `Search: ${p.q}` : "All plugins";
  return renderPage(
    page({
      title: `${title}${p.page > 1 ? ` (page ${p.page})` : ""} — Plugin Catalog`,
      q: p.q,
      script: true,
      feedCategory: info,
      canonical: `${base}${browseQuery(p, !inCategory)}`,
      main,
    }),
  );
}

/** A value of the record's optional fields, whatever its shape, as HTML (strings escaped, links only http(s)). */
function valueHtml(value: unknown, depth = 0): string {
  if (value === null || value === undefined || value === false) return "";
  if (value === true) return "yes";
  if (typeof value === "number") return esc(String(value));
  if (typeof value === "string") {
    const url = webUrl(value);
    return url !== null && /^https?:\/\//i.test(value) ? `<a href="${esc(url)}">${esc(value)}</a>` : esc(value);
  }
  if (depth > 3) return "";
  if (Array.isArray(value)) {
    const items = value.map((v) => valueHtml(v, depth + 1)).filter((html) => html !== "");
    return items.length ? `<ul>${items.map((html) => `<li>${html}</li>`).join("")}</ul>` : "";
  }
  if (typeof value === "object") {
    const rows = Object.entries(value as Record<string, unknown>)
      .map(([key, v]) => [key, valueHtml(v, depth + 1)] as const)
      .filter(([, html]) => html !== "");
    return rows.length
      ? `<dl class="facts">${rows.map(([key, html]) => `<dt>${esc(label(key))}</dt><dd>${html}</dd>`).join("")}</dl>`
      : "";
  }
  return "";
}

const label = (key: string) => key.replaceAll("_", " ");

interface InstallStep {
  harness?: unknown;
  kind?: unknown;
  command?: unknown;
  config?: unknown;
  env?: unknown;
  from?: unknown;
  package_verified?: unknown;
  package_note?: unknown;
}

/** Install instructions: each harness's command or configuration, ready to copy, and the variables it needs. */
function installHtml(install: unknown): string {
  if (!Array.isArray(install) || install.length === 0) return "";
  const steps = (install as InstallStep[]).map((step, i) => {
    if (step === null || typeof step !== "object") return "";
    const harness = typeof step.harness === "string" ? step.harness : "any harness";
    const kind = typeof step.kind === "string" ? ` (${esc(step.kind)})` : "";
    const text =
      typeof step.command === "string"
        ? step.command
        : step.config !== undefined && step.config !== null
          ? typeof step.config === "string"
            ? step.config
            : JSON.stringify(step.config, null, 2)
          : "";
    const what = typeof step.command === "string" ? "command" : "configuration";
    // A package its registry ties to another repository is shown, but never as this one's to copy.
    const note = typeof step.package_note === "string" ? `<p>Package check: ${esc(step.package_note)}</p>` : "";
    const foreign = step.package_verified === false;
    const code = foreign
      ? `<p><strong>Not this repository's package.</strong></p><pre><code>${esc(text)}</code></pre>`
      : text
        ? `<div class="command"><pre data-copy="${esc(`the ${harness} install ${what}`)}"><code>${esc(text)}</code></pre></div>`
        : "";
    const env = Array.isArray(step.env)
      ? (step.env as Array<Record<string, unknown>>)
          .filter((v) => v !== null && typeof v === "object" && typeof v.name === "string")
          .map((v) => {
            const notes = [v.required === true ? "required" : "optional", v.secret === true ? "secret" : ""].filter(
              Boolean,
            );
            return `<li><code>${esc(v.name as string)}</code> (${notes.join(", ")})</li>`;
          })
      : [];
    const envHtml = env.length ? `<p>Environment variables:</p><ul>${env.join("")}</ul>` : "";
    const from = step.from !== undefined && step.from !== null ? `<p>From: ${valueHtml(step.from)}</p>` : "";
    return `<section class="install" aria-labelledby="install-${i}"><h3 id="install-${i}">${esc(harness)}${kind}</h3>${code}${note}${envHtml}${from}</section>`;
  });
  return `<section aria-labelledby="install"><h2 id="install">Install</h2>${steps.join("")}</section>`;
}

/** The flags a record may carry, as members of its own or in a `flags` object. */
const FLAG_MEMBERS = ["fork_of", "deprecated", "lookalike_of", "latest_release"] as const;

/** The record's flags (fork of, deprecated, look-alike of, latest release), those set. */
function flagsHtml(p: PluginRecordView): string {
  const nested = p.flags !== null && typeof p.flags === "object" && !Array.isArray(p.flags) ? p.flags : {};
  const flags: Record<string, unknown> = { ...(nested as Record<string, unknown>) };
  for (const member of FLAG_MEMBERS) if (p[member] !== undefined) flags[member] = p[member];
  const rows: string[] = [];
  for (const [key, value] of Object.entries(flags)) {
    // A look-alike names a plugin of the catalog: its page is the one to compare with.
    const html =
      key === "lookalike_of" && typeof value === "string"
        ? `<a href="${esc(pluginPath(value))}">${esc(value)}</a>`
        : valueHtml(value);
    if (html !== "") rows.push(`<dt>${esc(label(key))}</dt><dd>${html}</dd>`);
  }
  return rows.length
    ? `<section aria-labelledby="flags"><h2 id="flags">Flags</h2><dl class="facts">${rows.join("")}</dl></section>`
    : "";
}

const CONTENT_KINDS: Record<string, string> = {
  skills: "Skills",
  commands: "Commands",
  agents: "Agents",
  hooks: "Hooks",
  mcp_servers: "MCP servers",
  plugins: "Plugins",
};

/** What the plugin holds, list by list; a list cut short says how many more its manifests name. */
function contentsHtml(contents: unknown): string {
  if (contents === null || typeof contents !== "object" || Array.isArray(contents))
    return sectionOf("contents", "Contents", contents);
  const { counts, ...lists } = contents as Record<string, unknown>;
  const parts = Object.entries(lists).map(([kind, list]) => {
    if (!Array.isArray(list) || list.length === 0) return "";
    const items = list.map((item) => {
      if (item === null || typeof item !== "object") return `<li>${valueHtml(item)}</li>`;
      const { name, description, source } = item as Record<string, unknown>;
      const about = typeof description === "string" && description ? `: ${esc(description)}` : "";
      const from = typeof source === "string" ? ` (${valueHtml(source)})` : "";
      return `<li><strong>${esc(String(name ?? ""))}</strong>${from}${about}</li>`;
    });
    const total = (counts as Record<string, unknown> | undefined)?.[kind];
    const more =
      typeof total === "number" && total > list.length ? `<li>and ${number(total - list.length)} more</li>` : "";
    const title = CONTENT_KINDS[kind] ?? label(kind);
    return `<h3>${esc(title)}</h3><ul>${items.join("")}${more}</ul>`;
  });
  const html = parts.join("");
  return html ? `<section aria-labelledby="contents"><h2 id="contents">Contents</h2>${html}</section>` : "";
}

function sectionOf(id: string, title: string, value: unknown): string {
  const html = valueHtml(value);
  return html ? `<section aria-labelledby="${id}"><h2 id="${id}">${title}</h2>${html}</section>` : "";
}

function date(text: string): string {
  return `<time datetime="${esc(text)}">${esc(text.slice(0, 10))}</time>`;
}

function pluginView(snapshot: Snapshot, p: PluginRecordView): Rendered {
  const facts: Array<[string, string]> = [
    ["Stars", number(p.stars)],
    ["Forks", number(p.forks)],
    ["Language", p.language ? esc(p.language) : "unknown"],
    ["Licence", p.license ? esc(p.license) : "unknown"],
    ["Created", date(p.created_at)],
    ["Last push", date(p.pushed_at)],
  ];
  if (p.archived) facts.push(["Archived", "yes: the repository is read-only"]);
  const repo = webUrl(p.url);
  const homepage = webUrl(p.homepage);
  const links = [
    repo ? `<li><a href="${esc(repo)}">Repository</a></li>` : "",
    homepage ? `<li><a href="${esc(homepage)}">Homepage</a></li>` : "",
    `<li><a href="${esc(`/api/v1/plugins/${pluginPath(p.id).slice("/plugin/".length)}`)}">This plugin as JSON</a></li>`,
  ].join("");
  const categories = p.categories
    .map((id) => `<li><a href="${esc(categoryPath(id))}">${esc(categoryName(snapshot, id))}</a></li>`)
    .join("");
  const topics = p.topics
    .map((topic) => `<li><a href="${esc(`/browse?q=${encodeURIComponent(topic)}`)}">${esc(topic)}</a></li>`)
    .join("");
  const primary = snapshot.categories.find((c) => c.id === p.category) ?? null;
  const main = `<h1>${esc(p.full_name)}</h1>
${p.archived ? `<p><span class="flag">archived</span></p>` : ""}
${p.description ? `<p>${esc(p.description)}</p>` : "<p>No description.</p>"}
${p.description_zh ? `<p lang="zh">${esc(p.description_zh)}</p>` : ""}
<nav aria-label="Links" class="links"><ul>${links}</ul></nav>
<section aria-labelledby="facts"><h2 id="facts">Facts</h2>
<dl class="facts">${facts.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join("")}</dl></section>
<section aria-labelledby="categories"><h2 id="categories">Categories</h2><ul class="tags">${categories}</ul></section>
${topics ? `<section aria-labelledby="topics"><h2 id="topics">Topics</h2><ul class="tags">${topics}</ul></section>` : ""}
${installHtml(p.install)}
${contentsHtml(p.contents)}
${sectionOf("works-with", "Works with", p.works_with)}
${flagsHtml(p)}`;
  return renderPage(
    page({
      title: `${p.full_name} — Plugin Catalog`,
      description: p.description || undefined,
      script: true,
      feedCategory: primary,
      canonical: pluginPath(p.id),
      main,
    }),
  );
}

/** A redirect page: 301 to `location`, with a link for a client that does not follow it. */
function movedTo(location: string, text: string): Rendered {
  const main = `<h1>Moved</h1><p>${esc(text)} <a href="${esc(location)}">Go to its page</a>.</p>`;
  const rendered = renderPage(page({ title: "Moved — Plugin Catalog", main }), 301);
  rendered.headers.Location = location;
  return rendered;
}

/** One plugin's page; a former id or another spelling of the id redirects, an unknown one is 404. */
function pluginPage(snapshot: Snapshot, id: string): Rendered {
  // Every part the snapshot stores beside the full form: contents, install, flags, works_with.
  const json = snapshot.plugin(id, INCLUDE_PARTS);
  if (json === null) {
    const current = snapshot.currentId(id);
    if (current !== null) return movedTo(pluginPath(current), `Plugin ${id} is now ${current}.`);
    return notFoundPage("No such plugin", `The catalog has no plugin ${esc(id)}.`);
  }
  const record = JSON.parse(json) as PluginRecordView;
  if (record.id !== id) return movedTo(pluginPath(record.id), `Plugin ${id} is written ${record.id}.`);
  return pluginView(snapshot, record);
}

function badRequestPage(error: HttpError): string {
  const main = `<h1>This address asks for something the catalog cannot show</h1><p>${esc(error.message)}</p><p><a href="/browse">Browse all plugins</a>.</p>`;
  return page({ title: "Bad request — Plugin Catalog", main });
}

/** A malformed parameter on a page: the error told as a page, never cached. */
function badPage(error: HttpError, note: RequestNote): Response {
  const headers = secured({ "Content-Type": HTML_TYPE, "Cache-Control": "no-store", ...note.limit });
  const rendered = renderPage(badRequestPage(error), error.status);
  return new Response(rendered.body as Uint8Array<ArrayBuffer>, {
    status: error.status,
    headers: { ...headers, "Content-Security-Policy": rendered.headers["Content-Security-Policy"]! },
  });
}

const HTML_STATUS = (description: string): MoreStatus => ({ description, type: "text/html" });
const PAGE_MORE = {
  400: HTML_STATUS("A malformed parameter or an unknown category: a page that names it."),
};

const browseQuerySchema = (snapshot: Snapshot, withCategory: boolean) =>
  t.Object({
    q: filtersSchema.q,
    ...(withCategory
      ? { category: t.Optional(stringEnum([...snapshot.categoryIds], { description: "Only this category." })) }
      : {}),
    curated: filtersSchema.curated,
    archived: filtersSchema.archived,
    has: filtersSchema.has,
    harness: filtersSchema.harness,
    original: filtersSchema.original,
    sort: t.Optional(stringEnum(SORTS, { default: "default", description: "As the list API's `sort`." })),
    page: t.Optional(
      t.Integer({ minimum: 1, default: 1, description: `Page number (${LIST_PAGE_SIZE.fallback} plugins a page).` }),
    ),
  });

export const pageDocs = {
  browse: {
    tag: "Pages",
    summary: "Search and browse the catalog (HTML)",
    description:
      "The list API's parameters as a page for people: the results, the total, the corrected spelling, " +
      `filters and pages of ${LIST_PAGE_SIZE.fallback}. Works without JavaScript; the script adds suggestions as one types.`,
    query: (snapshot) => browseQuerySchema(snapshot, true),
    body: TextSchema,
    type: "text/html",
    cached: "snapshot",
    more: PAGE_MORE,
  },
  category: {
    tag: "Pages",
    summary: "One category's plugins (HTML)",
    description: "The category's name, description and feeds, and its plugins with the browse page's parameters.",
    params: t.Object({ id: t.String({ description: "A category id." }) }),
    query: (snapshot) => browseQuerySchema(snapshot, false),
    body: TextSchema,
    type: "text/html",
    cached: "snapshot",
    more: { ...PAGE_MORE, 404: HTML_STATUS("No such category.") },
  },
  plugin: {
    tag: "Pages",
    summary: "One plugin (HTML)",
    description:
      "Description (and the Chinese one), stars, forks, language, licence, dates, topics, categories, links to the " +
      "repository, homepage and JSON, and the install instructions, contents and flags when the record has them.",
    params: t.Object({
      owner: t.String({ description: "Repository owner." }),
      repo: t.String({ description: "Repository name." }),
    }),
    body: TextSchema,
    type: "text/html",
    cached: "snapshot",
    more: {
      301: {
        description: "A former id of a renamed plugin, or another case of its id: `Location` is its page.",
        type: "text/html",
        headers: { Location: "The plugin's page, `/plugin/{owner}/{repo}`." },
      },
      404: HTML_STATUS("The catalog has no such plugin."),
    },
  },
} satisfies Record<string, RouteDoc<Snapshot>>;

// A malformed parameter's page (badPage) is answered apart, never cached.
export function pageHandlers(answer: Answer) {
  return {
    browse: answer.route(
      "page:browse",
      (query) => parseBrowse(query),
      (s, p) => listing(s, p, false),
      { bad: badPage },
    ),
    category: answer.route(
      "page:category",
      (query, _snapshot, { id }: { id: string }) => parseBrowse(query, id),
      (s, p) => listing(s, p, true),
      { bad: badPage },
    ),
    plugin: answer.route(
      "page:plugin",
      (_query, _snapshot, { owner, repo }: { owner: string; repo: string }) => `${owner}/${repo}`,
      pluginPage,
    ),
  };
}

/** The pages' rate-limit group: a person may open a few pages at once, then one every half second. */
export const PAGES_RULE = { burst: 10, intervalMs: 500 } as const;

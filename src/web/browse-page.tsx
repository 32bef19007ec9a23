/** @jsxImportSource preact */
/**
 * The listing pages: GET /browse (search, filters and pages with the list API's parameters) and
 * GET /categories/{id} (one category's plugins), with what an empty result offers instead.
 */
import type { CategoryInfo } from "../catalog/model/types";
import type { PluginView } from "../catalog/model/wire";
import { SORTS, type Sort } from "../catalog/search/orders";
import type { Snapshot } from "../catalog/snapshot/snapshot";
import type { Rendered } from "../http/cache";
import { badRequest } from "../http/errors";
import type { ListParams } from "../http/list-params";
import { categoryPath, feedUrl, pluginPath } from "../http/paths";
import { baseOf, browseQuery, type ListingProps } from "./browse-query";
import { EmptyState } from "./empty-state";
import { DateText, number, Page, renderPage, Stars } from "./layout";
import { BadRequestPage, NotFoundPage } from "./notices";

const SORT_LABELS: Record<Sort, string> = {
  default: "Best match",
  name: "Name",
  stars: "Stars",
  forks: "Forks",
  updated: "Recently pushed",
  heat: "Heat (popular and active)",
  newest: "Newest in the catalog",
  context: "Lightest context cost",
};

export function categoryName(snapshot: Snapshot, id: string): string {
  return snapshot.categories.find((c) => c.id === id)?.name ?? id;
}

const PluginItem = ({ snapshot, p }: { snapshot: Snapshot; p: PluginView }) => (
  <li>
    <h3>
      <a href={pluginPath(p.id)}>{p.full_name}</a>
    </h3>
    {p.description ? <p>{p.description}</p> : null}
    {p.description_zh ? <p lang="zh">{p.description_zh}</p> : null}
    <ul class="meta">
      <li>
        <Stars stars={p.stars} />
      </li>
      {p.language ? <li>{p.language}</li> : null}
      <li>{categoryName(snapshot, p.category)}</li>
      {p.archived ? (
        <li>
          <span class="flag">archived</span>
        </li>
      ) : null}
      <li>
        pushed <DateText at={p.pushed_at} />
      </li>
    </ul>
  </li>
);

function Select(props: { id: string; name: string; label: string; values: [string, string][]; selected: string }) {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <select id={props.id} name={props.name}>
        {props.values.map(([value, label]) => (
          <option value={value} selected={value === props.selected}>
            {label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Hidden fields that keep `q`, `has`, `harness`, `original`, `verified`, `risk`, `advisories` and `context_max` through the form, which has no control for them. */
const KeptFilters = ({ p }: { p: ListParams }) => (
  <>
    {p.q !== null ? <input type="hidden" name="q" value={p.q} /> : null}
    {p.has.length > 0 ? <input type="hidden" name="has" value={p.has.join(",")} /> : null}
    {p.harness !== null ? <input type="hidden" name="harness" value={p.harness} /> : null}
    {p.original ? <input type="hidden" name="original" value="1" /> : null}
    {p.verified ? <input type="hidden" name="verified" value="1" /> : null}
    {p.risk ? <input type="hidden" name="risk" value={p.risk} /> : null}
    {p.advisories ? <input type="hidden" name="advisories" value={p.advisories} /> : null}
    {p.contextMax !== null ? <input type="hidden" name="context_max" value={String(p.contextMax)} /> : null}
  </>
);

/** The filters of a listing; on a category page the category is the page's own. */
function FilterForm({ snapshot, p, action, inCategory }: ListingProps & { action: string }) {
  const categories: [string, string][] = [
    ["", "All categories"],
    ...snapshot.categories.map((c): [string, string] => [c.id, c.name]),
  ];
  const archived: [string, string][] = [
    ["", "Included"],
    ["false", "Left out"],
    ["true", "Only archived"],
  ];
  return (
    <form class="filters" action={action} method="get" aria-label="Filters">
      <KeptFilters p={p} />
      {inCategory ? null : (
        <Select id="f-category" name="category" label="Category" values={categories} selected={p.category ?? ""} />
      )}
      <Select
        id="f-sort"
        name="sort"
        label="Sort by"
        values={SORTS.map((s): [string, string] => [s, SORT_LABELS[s]])}
        selected={p.sort}
      />
      <Select
        id="f-archived"
        name="archived"
        label="Archived"
        values={archived}
        selected={p.archived === null ? "" : String(p.archived)}
      />
      <label class="check">
        <input type="checkbox" name="curated" value="1" checked={p.curated} /> Editors' picks only
      </label>
      <button type="submit">Apply</button>
    </form>
  );
}

function Pagination({
  base,
  p,
  total,
  inCategory,
}: {
  base: string;
  p: ListParams;
  total: number;
  inCategory: boolean;
}) {
  const pages = Math.max(1, Math.ceil(total / p.pageSize));
  if (pages === 1 && p.page === 1) return null;
  const link = (n: number) => `${base}${browseQuery(p, !inCategory, n)}`;
  return (
    <nav class="pages" aria-label="Pages">
      {p.page > 1 ? (
        <a rel="prev" href={link(Math.min(p.page - 1, pages))}>
          ← Previous page
        </a>
      ) : null}
      <span>
        Page {number(p.page)} of {number(pages)}
      </span>
      {p.page < pages ? (
        <a rel="next" href={link(p.page + 1)}>
          Next page →
        </a>
      ) : null}
    </nav>
  );
}

function Heading({ p, info, inCategory }: { p: ListParams; info: CategoryInfo | null; inCategory: boolean }) {
  if (inCategory && info) {
    return (
      <>
        <h1>
          {info.name} <span lang="zh">{info.name_zh}</span>
        </h1>
        <p>{info.description}</p>
        <p>
          Follow this category: <a href={feedUrl("rss", info.id)}>RSS</a>, <a href={feedUrl("atom", info.id)}>Atom</a>,{" "}
          <a href={feedUrl("json", info.id)}>JSON Feed</a>.
        </p>
      </>
    );
  }
  return (
    <h1>
      {p.q !== null ? `Plugins matching “${p.q}”` : "All plugins"}
      {info ? ` in ${info.name}` : ""}
    </h1>
  );
}

/** A listing: the search page, or a category's page when `category` is its path's. */
export function listing(snapshot: Snapshot, p: ListParams, inCategory: boolean): Rendered {
  const info: CategoryInfo | null =
    p.category === null ? null : (snapshot.categories.find((c) => c.id === p.category) ?? null);
  if (p.category !== null && info === null && !inCategory) {
    const error = badRequest("category", `one of ${[...snapshot.categoryIds].join(", ")}`);
    return renderPage(<BadRequestPage error={error} />, 400);
  }
  if (p.category !== null && info === null) {
    const known = snapshot.categories.map((c, i) => (
      <>
        {i > 0 ? ", " : null}
        <a href={categoryPath(c.id)}>{c.name}</a>
      </>
    ));
    return renderPage(
      <NotFoundPage title="No such category">
        The catalog has no category “{p.category}”. Its categories: {known}.
      </NotFoundPage>,
      404,
    );
  }
  const result = snapshot.list(p);
  const items = result.items.map((json) => JSON.parse(json) as PluginView);
  const base = baseOf({ p, inCategory });
  const first = p.offset + 1;
  const title = inCategory ? info!.name : p.q !== null ? `Search: ${p.q}` : "All plugins";
  return renderPage(
    <Page
      title={`${title}${p.page > 1 ? ` (page ${p.page})` : ""} — Plugin Catalog`}
      q={p.q}
      script
      feedCategory={info}
      canonical={`${base}${browseQuery(p, !inCategory)}`}
    >
      <Heading p={p} info={info} inCategory={inCategory} />
      <FilterForm snapshot={snapshot} p={p} action={base} inCategory={inCategory} />
      {result.corrected !== undefined ? (
        <p class="note" role="status">
          No plugin matches “{p.q}”; showing the results for “<strong>{result.corrected}</strong>”.
        </p>
      ) : null}
      {items.length > 0 ? (
        <p role="status">
          <strong>{number(result.total)}</strong> {result.total === 1 ? "plugin" : "plugins"}; showing {number(first)}–
          {number(first + items.length - 1)}.
        </p>
      ) : null}
      <section aria-label="Results">
        {items.length > 0 ? (
          <ul class="plugins">
            {items.map((item) => (
              <PluginItem snapshot={snapshot} p={item} />
            ))}
          </ul>
        ) : (
          <EmptyState snapshot={snapshot} p={p} inCategory={inCategory} hasMore={result.total > 0} />
        )}
      </section>
      <Pagination base={base} p={p} total={result.total} inCategory={inCategory} />
    </Page>,
  );
}

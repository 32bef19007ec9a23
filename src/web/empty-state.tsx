/** @jsxImportSource preact */
/** What a listing that finds nothing offers instead: the search without its filters, near words, the categories. */
import { categoryPath } from "../http/paths";
import { baseOf, browseQuery, filtered, type ListingProps } from "./browse-query";

export /** What an empty result offers: the search without its filters, shorter words, the categories. */
function EmptyState({ snapshot, p, inCategory, hasMore }: ListingProps & { hasMore: boolean }) {
  const base = baseOf({ p, inCategory });
  if (hasMore) {
    return (
      <div class="empty">
        <p>This page is past the last one.</p>
        <p>
          <a href={`${base}${browseQuery({ ...p, page: 1 }, !inCategory)}`}>Back to the first page</a>
        </p>
      </div>
    );
  }
  const narrowed = filtered(p);
  // "Did you mean": the search with a word that matches nothing replaced by a near word of the index.
  const alternatives = p.q === null ? [] : snapshot.suggestions(p.q, 3);
  const unfiltered = {
    ...p,
    category: null,
    curated: false,
    archived: null,
    has: [],
    harness: null,
    original: false,
    verified: false,
    risk: null,
    advisories: null,
  };
  return (
    <div class="empty" role="status">
      <p>
        <strong>
          {p.q !== null
            ? `No plugin matches “${p.q}”${narrowed ? " with these filters" : ""}.`
            : "No plugin matches these filters."}
        </strong>
      </p>
      {p.q !== null ? (
        <ul>
          {narrowed ? (
            <li>
              <a href={`/browse${browseQuery({ ...unfiltered, page: 1 }, true)}`}>
                Search “{p.q}” in every category, without filters
              </a>
            </li>
          ) : null}
          {alternatives.length > 0 ? (
            <li>
              Did you mean{" "}
              {alternatives.map((text, i) => (
                <>
                  {i > 0 ? ", " : null}
                  <a href={`${base}${browseQuery({ ...p, q: text, page: 1 }, !inCategory)}`}>{text}</a>
                </>
              ))}
              ?
            </li>
          ) : null}
          <li>
            Use fewer or shorter words: every word must match, and the last one may be the start of a word (
            <code>postg</code> finds <code>postgres</code>).
          </li>
          <li>
            Search an owner or a full name as it is written: <code>anthropics</code>, <code>obra/superpowers</code>.
          </li>
        </ul>
      ) : null}
      <p>Or browse a category:</p>
      <ul class="tags">
        {snapshot.categories.map((c) => (
          <li>
            <a href={categoryPath(c.id)}>{c.name}</a>
          </li>
        ))}
      </ul>
    </div>
  );
}

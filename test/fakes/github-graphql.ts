/**
 * The fake platform's GraphQL: aliased `repository(owner:, name:)` fields with the Repository
 * fields the refresher selects (the owner's `isVerified` when it is an organization), `object(expression: "HEAD:path")` inside them (or `"<commit>:path"`, read at a commit the repository had) (a Blob with
 * `byteSize` and `text`, a Tree for a folder, null when nothing is there), and `rateLimit`.
 */
import { type FakeRepo, graphNode, type RepoStore, repoAt } from "./github-repos";
import { objectId } from "./object-ids";

const ALIAS = /(\w+)\s*:\s*repository\(\s*owner:\s*\$(\w+)\s*,\s*name:\s*\$(\w+)\s*\)/g;
/** An `alias: object(expression: "HEAD:path")` field (or `"<commit>:path"`); its selection is the balanced block after it. */
const OBJECT = /(\w+)\s*:\s*object\(\s*expression:\s*"(HEAD|[0-9a-f]{40}):([^"]*)"\s*\)\s*/g;
/** The folder prefix of `path` ("" for the root, `HEAD:`). */
const folderPrefix = (path: string) => (path.replace(/\/$/, "") === "" ? "" : `${path.replace(/\/$/, "")}/`);

/** The names and types right under folder `path`, as a Tree's `entries`. */
function treeEntries(repo: FakeRepo, path: string): Array<{ name: string; type: string }> {
  const prefix = folderPrefix(path);
  const entries = new Map<string, string>();
  for (const file of Object.keys(repo.files)) {
    if (!file.startsWith(prefix)) continue;
    const rest = file.slice(prefix.length);
    const slash = rest.indexOf("/");
    entries.set(slash < 0 ? rest : rest.slice(0, slash), slash < 0 ? "blob" : "tree");
  }
  return [...entries].map(([name, type]) => ({ name, type }));
}

/** The `[alias, rev, path, selection]` of each object field written directly in `block`. */
function objectFields(block: string): Array<[string, string, string, string]> {
  return [...block.matchAll(OBJECT)].map((m) => [m[1]!, m[2]!, m[3]!, blockAfter(block, m.index! + m[0].length) ?? ""]);
}

/** The selection block that follows `from` in `query` (balanced braces), or null. */
function blockAfter(query: string, from: number): string | null {
  const open = query.indexOf("{", from);
  if (open < 0) return null;
  let depth = 0;
  for (let i = open; i < query.length; i++) {
    if (query[i] === "{") depth++;
    else if (query[i] === "}" && --depth === 0) return query.slice(open + 1, i);
  }
  return null;
}

/** A Tree's `entries`, each with the fields asked: its `oid`, and its own `object` when the selection nests one. */
function entriesOf(repo: FakeRepo, path: string, selection: string): Array<Record<string, unknown>> {
  const asked = blockAfter(selection, selection.indexOf("entries")) ?? "";
  const at = asked.search(/\bobject\b/);
  const nested = at < 0 ? null : (blockAfter(asked, at) ?? "");
  return treeEntries(repo, path).map((e) => {
    const full = `${folderPrefix(path)}${e.name}`;
    const entry: Record<string, unknown> = { ...e };
    if (/\boid\b/.test(at < 0 ? asked : asked.slice(0, at))) entry.oid = objectId(repo.files, full);
    if (nested !== null) entry.object = gitObject(repo, full, nested) ?? {};
    return entry;
  });
}

/** The Git object at `path` in the repository's HEAD, with the fields the selection asks for. */
function gitObject(repo: FakeRepo, path: string, selection: string): Record<string, unknown> | null {
  const content = repo.files[path];
  if (content === undefined) {
    const isTree = Object.keys(repo.files).some((p) => p.startsWith(folderPrefix(path)));
    if (!isTree) return null;
    // A Blob-only selection on a Tree answers an empty object, as the platform does for a fragment that does not apply.
    const tree: Record<string, unknown> =
      /\bon Tree\b/.test(selection) || !/\bon Blob\b/.test(selection) ? { __typename: "Tree" } : {};
    if (/\bentries\b/.test(selection) && /\bon Tree\b/.test(selection)) tree.entries = entriesOf(repo, path, selection);
    if (/__typename/.test(selection)) tree.__typename = "Tree";
    return tree;
  }
  if (/\bon Tree\b/.test(selection) && !/\bon Blob\b/.test(selection)) return {};
  const blob: Record<string, unknown> = { __typename: "Blob" };
  if (/\bbyteSize\b/.test(selection)) blob.byteSize = Buffer.byteLength(content);
  if (/\btext\b/.test(selection)) blob.text = content;
  if (/\bisTruncated\b/.test(selection)) blob.isTruncated = false;
  return blob;
}

/** The response body of one query, and its cost in points (one per hundred repositories, as the platform counts it). */
export function graphqlResponse(
  repos: RepoStore,
  query: string,
  variables: Record<string, string>,
  budget: { remaining: number; reset: number },
  omit: ReadonlySet<string>,
): { payload: Record<string, unknown>; cost: number } {
  const aliases = [...query.matchAll(ALIAS)];
  // Objects in a fragment apply to every repository field; objects written inline apply to their own.
  const fragment = query.indexOf("fragment ");
  const objects = fragment < 0 ? [] : objectFields(query.slice(fragment));
  const cost = Math.max(1, Math.ceil(aliases.length / 100));
  const data: Record<string, unknown> = {};
  const errors: unknown[] = [];
  if (/\brateLimit\b/.test(query)) {
    data.rateLimit = { cost, remaining: budget.remaining - cost, resetAt: new Date(budget.reset * 1000).toISOString() };
  }
  for (const aliasMatch of aliases) {
    const [, alias, ownerVar, nameVar] = aliasMatch;
    const inline = blockAfter(query, aliasMatch.index! + aliasMatch[0].length) ?? "";
    const own = inline.includes("...Repo") ? objects : objectFields(inline);
    const name = `${variables[ownerVar!]}/${variables[nameVar!]}`;
    // The platform follows renames in GraphQL: an old name resolves to the repository under its new one.
    const found = repos.lookup(name);
    if (found) {
      const node = graphNode(found.repo, omit);
      for (const [objectAlias, rev, path, selection] of own) {
        const at = repoAt(found.repo, rev);
        node[objectAlias] = at === null ? null : gitObject(at, path, selection);
      }
      data[alias!] = node;
    } else {
      data[alias!] = null;
      errors.push({
        type: "NOT_FOUND",
        path: [alias],
        locations: [{ line: 1, column: 1 }],
        message: `Could not resolve to a Repository with the name '${name}'.`,
      });
    }
  }
  return { payload: errors.length ? { data, errors } : { data }, cost };
}

/**
 * The fake platform's GraphQL: aliased `repository(owner:, name:)` fields with the Repository
 * fields the refresher selects, `object(expression: "HEAD:path")` inside them (a Blob with
 * `byteSize` and `text`, a Tree for a folder, null when nothing is there), and `rateLimit`.
 */
import { type FakeRepo, graphNode, type RepoStore } from "./github-repos";

const ALIAS = /(\w+)\s*:\s*repository\(\s*owner:\s*\$(\w+)\s*,\s*name:\s*\$(\w+)\s*\)/g;
const OBJECT = /(\w+)\s*:\s*object\(\s*expression:\s*"HEAD:([^"]+)"\s*\)\s*\{((?:[^{}]|\{[^{}]*\})*)\}/g;

/** The Git object at `path` in the repository's HEAD, with the fields the selection asks for. */
function gitObject(repo: FakeRepo, path: string, selection: string): Record<string, unknown> | null {
  const content = repo.files[path];
  if (content === undefined) {
    const isTree = Object.keys(repo.files).some((p) => p.startsWith(`${path.replace(/\/$/, "")}/`));
    return isTree ? { __typename: "Tree" } : null;
  }
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
  const objects = [...query.matchAll(OBJECT)];
  const cost = Math.max(1, Math.ceil(aliases.length / 100));
  const data: Record<string, unknown> = {};
  const errors: unknown[] = [];
  if (/\brateLimit\b/.test(query)) {
    data.rateLimit = { cost, remaining: budget.remaining - cost, resetAt: new Date(budget.reset * 1000).toISOString() };
  }
  for (const [, alias, ownerVar, nameVar] of aliases) {
    const name = `${variables[ownerVar!]}/${variables[nameVar!]}`;
    // The platform follows renames in GraphQL: an old name resolves to the repository under its new one.
    const found = repos.lookup(name);
    if (found) {
      const node = graphNode(found.repo, omit);
      for (const [, objectAlias, path, selection] of objects)
        node[objectAlias!] = gitObject(found.repo, path!, selection!);
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

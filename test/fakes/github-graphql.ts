/** The fake platform's GraphQL: aliased `repository(owner:, name:)` fields and `rateLimit`, nothing more. */
import { graphNode, type RepoStore } from "./github-repos";

const ALIAS = /(\w+)\s*:\s*repository\(\s*owner:\s*\$(\w+)\s*,\s*name:\s*\$(\w+)\s*\)/g;

/** The response body of one query, and its cost in points (one per hundred repositories, as the platform counts it). */
export function graphqlResponse(
  repos: RepoStore,
  query: string,
  variables: Record<string, string>,
  budget: { remaining: number; reset: number },
  omit: ReadonlySet<string>,
): { payload: Record<string, unknown>; cost: number } {
  const aliases = [...query.matchAll(ALIAS)];
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
    data[alias!] = found ? graphNode(found.repo, omit) : null;
    if (!found) {
      errors.push({ type: "NOT_FOUND", path: [alias], locations: [{ line: 1, column: 1 }], message: `Could not resolve to a Repository with the name '${name}'.` });
    }
  }
  return { payload: errors.length ? { data, errors } : { data }, cost };
}

/**
 * One GraphQL query asking several repositories each for its own selection, as the batch's
 * follow-up rounds do: read at the platform's head, or at `commit` when one is named (an approved
 * commit, manifests/selection.ts). An answer with errors keeps what it holds; its points are counted.
 */
import { GraphqlResponseError } from "@octokit/graphql";
import type { GitHub } from "../github/client";
import { atCommit } from "../manifests/selection";

type Json = Record<string, unknown>;

/** One repository (`owner/name`) and the fields asked of it. */
export interface RepositoryAsk {
  id: string;
  selection: string;
}

/** Asks query `name` of every repository in `asks`; each one's answer in order, null where none came. */
export async function askRepositories(
  gh: GitHub,
  name: string,
  asks: readonly RepositoryAsk[],
  commit?: string,
): Promise<Array<Json | null>> {
  const variables: Record<string, string> = {};
  const fields = asks.map((ask, i) => {
    const [owner, repo] = ask.id.split("/") as [string, string];
    variables[`o${i}`] = owner;
    variables[`n${i}`] = repo;
    return `r${i}: repository(owner: $o${i}, name: $n${i}) { ${ask.selection} }`;
  });
  const declarations = asks.map((_, i) => `$o${i}: String!, $n${i}: String!`).join(", ");
  const query = `query ${name}(${declarations}) {\n  rateLimit { cost remaining resetAt }\n  ${fields.join("\n  ")}\n}`;
  let data: Json;
  try {
    data = await gh.octokit.graphql<Json>(commit ? atCommit(query, commit) : query, variables);
  } catch (error) {
    if (!(error instanceof GraphqlResponseError) || !error.data) throw error;
    data = error.data as Json;
  }
  const rate = data.rateLimit as { cost?: unknown; remaining?: unknown; resetAt?: unknown } | undefined;
  if (rate) gh.usage.addPoints(Number(rate.cost) || 0, Number(rate.remaining) || 0, String(rate.resetAt));
  return asks.map((_, i) => (data[`r${i}`] as Json | null | undefined) ?? null);
}

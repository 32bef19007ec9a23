/**
 * Fetching with a token: repositories in GraphQL queries of up to 100 aliased `repository` fields,
 * one point of the GraphQL budget each. The platform resolves an old name to the renamed repository
 * (its nameWithOwner is the new id) and answers a deleted or hidden one with null and a NOT_FOUND error.
 */
import { GraphqlResponseError } from "@octokit/graphql";
import { fromGraph, REPO_FIELDS, type GraphRepo } from "./facts";
import type { GitHub } from "./github";
import type { Outcome } from "./outcome";

/** The platform's limit of nodes per query, and the size that keeps a query at one point. */
export const GRAPHQL_BATCH = 100;
/** Error types that mean the repository is gone for us; any other error fails the run. */
const GONE = new Set(["NOT_FOUND", "FORBIDDEN"]);

interface BatchData {
  rateLimit?: { cost: number; remaining: number; resetAt: string };
  [alias: string]: GraphRepo | null | BatchData["rateLimit"];
}

interface GraphError {
  type?: string;
  path?: Array<string | number>;
  message: string;
}

function batchQuery(ids: string[]): { query: string; variables: Record<string, string> } {
  const variables: Record<string, string> = {};
  const declarations: string[] = [];
  const fields: string[] = [];
  ids.forEach((id, i) => {
    const [owner, name] = id.split("/") as [string, string];
    variables[`o${i}`] = owner;
    variables[`n${i}`] = name;
    declarations.push(`$o${i}: String!, $n${i}: String!`);
    fields.push(`r${i}: repository(owner: $o${i}, name: $n${i}) { ...Repo }`);
  });
  const query = `query Repos(${declarations.join(", ")}) {
  rateLimit { cost remaining resetAt }
  ${fields.join("\n  ")}
}
fragment Repo on Repository { ${REPO_FIELDS} }`;
  return { query, variables };
}

async function runBatch(gh: GitHub, ids: string[]): Promise<{ data: BatchData; errors: GraphError[] }> {
  const { query, variables } = batchQuery(ids);
  try {
    return { data: await gh.octokit.graphql<BatchData>(query, variables), errors: [] };
  } catch (error) {
    if (!(error instanceof GraphqlResponseError)) throw gh.budgetError(error);
    const errors = error.errors as GraphError[];
    const fatal = errors.filter((e) => !GONE.has(e.type ?? ""));
    if (fatal.length > 0 || !error.data) throw error;
    return { data: error.data as BatchData, errors };
  }
}

/** Fetches `ids` batch by batch, handing each batch's outcomes (keyed by lowercased asked id) to `onBatch`. */
export async function fetchGraph(
  gh: GitHub,
  ids: string[],
  onBatch: (outcomes: Array<[string, Outcome]>) => void,
): Promise<void> {
  for (let start = 0; start < ids.length; start += GRAPHQL_BATCH) {
    const batch = ids.slice(start, start + GRAPHQL_BATCH);
    const { data, errors } = await runBatch(gh, batch);
    if (data.rateLimit) gh.usage.addPoints(data.rateLimit.cost, data.rateLimit.remaining, data.rateLimit.resetAt);
    const reasons = new Map(errors.map((e) => [String(e.path?.[0]), e.type ?? "NOT_FOUND"]));
    onBatch(
      batch.map((id, i): [string, Outcome] => {
        const node = data[`r${i}`] as GraphRepo | null | undefined;
        const outcome: Outcome = node
          ? { kind: "fetched", facts: fromGraph(node), etag: null }
          : { kind: "gone", reason: reasons.get(`r${i}`) ?? "NOT_FOUND" };
        return [id.toLowerCase(), outcome];
      }),
    );
  }
}

/**
 * Fetching without a token: `GET /repos/{owner}/{repo}` per repository, with `If-None-Match` from the
 * published ETag, since a `304` costs nothing against the limit. The platform answers an old name
 * with a redirect to the renamed repository (followed here), a deleted or hidden one with 404.
 */

import { type GitHub, statusOf } from "../github/client";
import { cleanText, type UpstreamGate } from "../upstream/gate";
import { fromRest } from "../upstream/repo-facts";
import type { Outcome } from "./outcome";

/** Longer than any ETag the platform sends; it is stored and sent back, so it is bounded like any upstream text. */
const MAX_ETAG = 200;

/** Requests in flight at once: enough to hide latency, few enough to stay clear of secondary limits. */
const CONCURRENCY = 8;
/** Statuses that mean the repository is gone for us: deleted, hidden, blocked for legal reasons. */
const GONE = new Set([403, 404, 410, 451]);

export interface RestItem {
  id: string;
  etag: string | null;
}

async function fetchOne(gh: GitHub, gate: UpstreamGate, item: RestItem): Promise<Outcome> {
  const [owner, repo] = item.id.split("/") as [string, string];
  try {
    const response = await gh.octokit.request("GET /repos/{owner}/{repo}", {
      owner,
      repo,
      headers: item.etag ? { "if-none-match": item.etag } : {},
    });
    const facts = gate.facts(fromRest(response.data as unknown as Record<string, unknown>));
    if (!facts) return { kind: "gone", reason: "left out: not a repository name" };
    const etag = response.headers.etag;
    return { kind: "fetched", facts, etag: typeof etag === "string" ? cleanText(etag, MAX_ETAG) : null };
  } catch (error) {
    const status = statusOf(error);
    if (status === 304 && item.etag) return { kind: "unchanged", etag: item.etag };
    if (status !== undefined && GONE.has(status)) return { kind: "gone", reason: `HTTP ${status}` };
    throw error;
  }
}

/**
 * The repository with the platform's numeric id `repoId`, under whatever name it has now
 * (`GET /repositories/{id}`): how a plugin whose name another repository took is followed.
 */
export async function fetchById(gh: GitHub, gate: UpstreamGate, repoId: number): Promise<Outcome> {
  try {
    const response = await gh.octokit.request("GET /repositories/{repository_id}", { repository_id: repoId });
    const facts = gate.facts(fromRest(response.data as unknown as Record<string, unknown>));
    if (!facts) return { kind: "gone", reason: "left out: not a repository name" };
    if (facts.database_id !== repoId) return { kind: "gone", reason: `answered with repository ${facts.database_id}` };
    return { kind: "fetched", facts, etag: null };
  } catch (error) {
    const status = statusOf(error);
    if (status !== undefined && GONE.has(status)) return { kind: "gone", reason: `HTTP ${status}` };
    throw error;
  }
}

/** Fetches every item, a few at a time; stops at the first error once the requests in flight are in. */
export async function fetchRest(
  gh: GitHub,
  gate: UpstreamGate,
  items: RestItem[],
  onResult: (id: string, outcome: Outcome) => void,
): Promise<void> {
  let next = 0;
  let failure: unknown = null;
  const worker = async () => {
    while (failure === null && next < items.length) {
      const item = items[next++]!;
      try {
        onResult(item.id.toLowerCase(), await fetchOne(gh, gate, item));
      } catch (error) {
        failure ??= error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, worker));
  if (failure !== null) throw failure;
}

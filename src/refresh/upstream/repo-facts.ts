/**
 * Repository facts from each shape the platform answers in.
 * The readers here only pick fields out; whatever they hold is checked by the gate (gate.ts).
 */
import type { RawFacts } from "./gate";

/** The REST repository object (GET /repos/{owner}/{repo}, search items), only the fields read here. */
export interface RestRepo {
  full_name: string;
  description: string | null;
  homepage: string | null;
  stargazers_count: number;
  forks_count: number;
  language: string | null;
  license: { spdx_id: string | null } | null;
  archived: boolean;
  created_at: string;
  pushed_at: string;
  topics?: string[];
}

/** The GraphQL Repository fields the fetch asks for (see REPO_FIELDS). */
export interface GraphRepo {
  databaseId: number;
  nameWithOwner: string;
  description: string | null;
  homepageUrl: string | null;
  stargazerCount: number;
  forkCount: number;
  isArchived: boolean;
  createdAt: string;
  pushedAt: string;
  primaryLanguage: { name: string } | null;
  licenseInfo: { spdxId: string | null } | null;
  repositoryTopics: { nodes: Array<{ topic: { name: string } }> };
}

/**
 * The GraphQL selection matching GraphRepo. `databaseId` is the platform's numeric id, which
 * survives renames. Topics: the platform allows at most 20 per repository.
 */
export const REPO_FIELDS = `databaseId nameWithOwner description homepageUrl stargazerCount forkCount isArchived
  createdAt pushedAt primaryLanguage { name } licenseInfo { spdxId } repositoryTopics(first: 20) { nodes { topic { name } } }`;

type Loose = Record<string, unknown> | null | undefined;
const field = (value: unknown, name: string): unknown =>
  value && typeof value === "object" ? (value as Record<string, unknown>)[name] : undefined;

export function fromRest(repo: RestRepo | Loose): RawFacts {
  const r = (repo ?? {}) as Record<string, unknown>;
  return {
    database_id: r.id,
    full_name: r.full_name,
    description: r.description,
    homepage: r.homepage,
    stars: r.stargazers_count,
    forks: r.forks_count,
    language: r.language,
    license: field(r.license, "spdx_id") ?? null,
    archived: r.archived,
    created_at: r.created_at,
    pushed_at: r.pushed_at,
    topics: r.topics ?? [],
    hint: undefined,
  };
}

export function fromGraph(repo: GraphRepo | Loose): RawFacts {
  const r = (repo ?? {}) as Record<string, unknown>;
  const nodes = field(r.repositoryTopics, "nodes");
  return {
    database_id: r.databaseId,
    full_name: r.nameWithOwner,
    description: r.description,
    homepage: r.homepageUrl,
    stars: r.stargazerCount,
    forks: r.forkCount,
    language: field(r.primaryLanguage, "name") ?? null,
    license: field(r.licenseInfo, "spdxId") ?? null,
    archived: r.isArchived,
    created_at: r.createdAt,
    pushed_at: r.pushedAt,
    topics: Array.isArray(nodes) ? nodes.map((n) => field(field(n, "topic"), "name")) : [],
    hint: undefined,
  };
}

/** Repository facts from each shape the platform answers in, and from a previous snapshot's record. */
import type { RepoFacts } from "../catalog/types";
import type { PluginView } from "../catalog/views";

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

/** The GraphQL selection matching GraphRepo. Topics: the platform allows at most 20 per repository. */
export const REPO_FIELDS = `nameWithOwner description homepageUrl stargazerCount forkCount isArchived createdAt pushedAt
  primaryLanguage { name } licenseInfo { spdxId } repositoryTopics(first: 20) { nodes { topic { name } } }`;

export function fromRest(repo: RestRepo): RepoFacts {
  return {
    full_name: repo.full_name,
    description: repo.description,
    homepage: repo.homepage,
    stars: repo.stargazers_count,
    forks: repo.forks_count,
    language: repo.language,
    license: repo.license?.spdx_id ?? null,
    archived: repo.archived,
    created_at: repo.created_at,
    pushed_at: repo.pushed_at,
    topics: repo.topics ?? [],
  };
}

export function fromGraph(repo: GraphRepo): RepoFacts {
  return {
    full_name: repo.nameWithOwner,
    description: repo.description,
    homepage: repo.homepageUrl,
    stars: repo.stargazerCount,
    forks: repo.forkCount,
    language: repo.primaryLanguage?.name ?? null,
    license: repo.licenseInfo?.spdxId ?? null,
    archived: repo.isArchived,
    created_at: repo.createdAt,
    pushed_at: repo.pushedAt,
    topics: repo.repositoryTopics?.nodes.map((n) => n.topic.name) ?? [],
  };
}

/** The facts a published record was built from: what a `304 Not Modified` confirms. */
export function fromView(view: PluginView): RepoFacts {
  return {
    full_name: view.full_name,
    description: view.description || null,
    homepage: view.homepage,
    stars: view.stars,
    forks: view.forks,
    language: view.language || null,
    license: view.license || null,
    archived: view.archived,
    created_at: view.created_at,
    pushed_at: view.pushed_at,
    topics: view.topics,
  };
}

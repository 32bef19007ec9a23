/**
 * The fake platform's repositories, and the bodies it answers with: the REST repository object
 * and the GraphQL Repository node, shaped after the platform's documented examples.
 */

export interface FakeRepo {
  id: number;
  owner: string;
  name: string;
  description: string | null;
  homepage: string | null;
  /** A bigint stands for a count past 2^53, which the platform's JSON would carry as a bare number. */
  stars: number | bigint;
  forks: number;
  language: string | null;
  /** An SPDX id, or null for no licence. */
  license: string | null;
  archived: boolean;
  created_at: string;
  pushed_at: string;
  /** Anything a hostile record may hold in place of its topics. */
  topics: unknown[];
  /** Files at the default branch's HEAD, by path: what code search, contents and `object(expression:)` see. */
  files: Record<string, string>;
  /** The repository this one is a fork of (`owner/name`), if any. */
  parent?: string | null;
  /** The latest release, if any. */
  release?: { tag: string; date: string } | null;
  /** The default branch's head commit; by default a hash of the files, so it moves when they change. */
  head?: unknown;
  /** Earlier commits' files, by commit id: what `object(expression: "<sha>:path")` reads (update() keeps them). */
  commits?: Record<string, Record<string, string>>;
  /**
   * The owner as GraphQL's `owner { ... on Organization { isVerified } }` sees it: an organization
   * with its domain verified (true) or not (false); a user when absent.
   */
  orgVerified?: boolean;
}

export type RepoSeed = Partial<Omit<FakeRepo, "id" | "owner" | "name">> & {
  full_name: string;
  /** Shorthand for a `.claude-plugin/marketplace.json` listing the repository's own plugin. */
  marketplace?: boolean;
};

/** A marketplace manifest in the shape Claude Code reads: plugins with a local path or an `owner/repo` source. */
export function marketplaceManifest(
  name: string,
  sources: Array<string | { source: string; repo?: string; url?: string }>,
): string {
  return JSON.stringify(
    {
      name,
      owner: { name },
      plugins: sources.map((source, i) => ({ name: `${name}-${i}`, source, description: "A plugin" })),
    },
    null,
    2,
  );
}

/** Owner and the rest: a hostile name may hold more slashes, and keeps them. */
function splitName(full: string): [string, string] {
  const slash = full.indexOf("/");
  return [full.slice(0, slash), full.slice(slash + 1)];
}

export function fullName(repo: FakeRepo): string {
  return `${repo.owner}/${repo.name}`;
}

/** Repositories by id, reachable by their current name and, after a rename, by the old one (a redirect). */
export class RepoStore {
  private nextId = 1000;
  private readonly byId = new Map<number, FakeRepo>();
  private readonly names = new Map<string, number>();
  private readonly oldNames = new Map<string, number>();

  add(seed: RepoSeed): FakeRepo {
    const [owner, name] = splitName(seed.full_name);
    const repo: FakeRepo = {
      id: this.nextId++,
      owner,
      name,
      description: `${name} for coding agents`,
      homepage: null,
      stars: 10,
      forks: 1,
      language: "TypeScript",
      license: "MIT",
      archived: false,
      created_at: "2025-03-01T10:00:00Z",
      pushed_at: "2026-11-01T10:00:00Z",
      topics: [],
      ...seed,
      files: { ...seed.files },
    };
    if (seed.marketplace) repo.files[".claude-plugin/marketplace.json"] ??= marketplaceManifest(name, ["./"]);
    delete (repo as Partial<RepoSeed>).full_name;
    delete (repo as Partial<RepoSeed>).marketplace;
    this.byId.set(repo.id, repo);
    this.names.set(seed.full_name.toLowerCase(), repo.id);
    return repo;
  }

  /** The repository under `name`; `moved` when it was reached through an old name. */
  lookup(name: string): { repo: FakeRepo; moved: boolean } | null {
    const key = name.toLowerCase();
    const current = this.names.get(key);
    if (current !== undefined) return { repo: this.byId.get(current)!, moved: false };
    const old = this.oldNames.get(key);
    return old !== undefined && this.byId.has(old) ? { repo: this.byId.get(old)!, moved: true } : null;
  }

  byNumber(id: number): FakeRepo | null {
    return this.byId.get(id) ?? null;
  }

  get(name: string): FakeRepo {
    const found = this.lookup(name);
    if (!found) throw new Error(`fake: no repository ${name}`);
    return found.repo;
  }

  /** Changes a repository; new `files` are a new commit, the former head's files kept under its id. */
  update(name: string, fields: Partial<Omit<FakeRepo, "id" | "owner" | "name">>): void {
    const repo = this.get(name);
    if (fields.files) {
      const head = headCommitOf(repo);
      if (typeof head === "string") repo.commits = { ...repo.commits, [head]: repo.files };
    }
    Object.assign(repo, fields);
  }

  rename(from: string, to: string): void {
    const repo = this.get(from);
    const [owner, name] = splitName(to);
    this.names.delete(from.toLowerCase());
    this.oldNames.set(from.toLowerCase(), repo.id);
    Object.assign(repo, { owner, name });
    this.names.set(to.toLowerCase(), repo.id);
  }

  /** Deleted, or made private: either way gone for an outsider. */
  remove(name: string): void {
    const repo = this.get(name);
    this.byId.delete(repo.id);
    this.names.delete(fullName(repo).toLowerCase());
  }

  all(): FakeRepo[] {
    return [...this.byId.values()];
  }
}

const LICENSE_NAMES: Record<string, string> = { MIT: "MIT License", "Apache-2.0": "Apache License 2.0" };

/** The REST repository object (GET /repos/{owner}/{repo}, search items). */
export function restBody(repo: FakeRepo, api: string): Record<string, unknown> {
  const full = fullName(repo);
  return {
    id: repo.id,
    node_id: `R_kgDO${repo.id}`,
    name: repo.name,
    full_name: full,
    private: false,
    owner: {
      login: repo.owner,
      id: repo.id + 1,
      node_id: `U_${repo.owner}`,
      avatar_url: `https://avatars.example/u/${repo.owner}`,
      html_url: `https://github.com/${repo.owner}`,
      type: "User",
      site_admin: false,
    },
    html_url: `https://github.com/${full}`,
    description: repo.description,
    fork: false,
    url: `${api}/repos/${full}`,
    created_at: repo.created_at,
    updated_at: repo.pushed_at,
    pushed_at: repo.pushed_at,
    homepage: repo.homepage,
    size: 108,
    stargazers_count: repo.stars,
    watchers_count: repo.stars,
    language: repo.language,
    has_issues: true,
    forks_count: repo.forks,
    archived: repo.archived,
    disabled: false,
    open_issues_count: 0,
    license: repo.license
      ? {
          key: repo.license.toLowerCase(),
          name: LICENSE_NAMES[repo.license] ?? repo.license,
          spdx_id: repo.license,
          url: `${api}/licenses/${repo.license.toLowerCase()}`,
          node_id: "MDc6TGljZW5zZTE=",
        }
      : null,
    topics: repo.topics,
    visibility: "public",
    forks: repo.forks,
    open_issues: 0,
    watchers: repo.stars,
    default_branch: "main",
  };
}

/** The GraphQL Repository node with the fields the refresher selects. */
export function graphNode(repo: FakeRepo, omit: ReadonlySet<string>): Record<string, unknown> {
  const node: Record<string, unknown> = {
    databaseId: repo.id,
    nameWithOwner: fullName(repo),
    description: repo.description,
    homepageUrl: repo.homepage,
    stargazerCount: repo.stars,
    forkCount: repo.forks,
    isArchived: repo.archived,
    createdAt: repo.created_at,
    pushedAt: repo.pushed_at,
    primaryLanguage: repo.language ? { name: repo.language } : null,
    licenseInfo: repo.license ? { spdxId: repo.license } : null,
    repositoryTopics: { nodes: repo.topics.map((name) => ({ topic: { name } })) },
    isFork: Boolean(repo.parent),
    parent: repo.parent ? { nameWithOwner: repo.parent } : null,
    latestRelease: repo.release ? { tagName: repo.release.tag, publishedAt: repo.release.date } : null,
    defaultBranchRef: { target: { oid: headCommitOf(repo) } },
    // A fragment on Organization answers nothing for a user.
    owner: repo.orgVerified === undefined ? {} : { isVerified: repo.orgVerified },
  };
  for (const field of omit) delete node[field];
  return node;
}

/** The default branch's head commit of `repo`. */
export function headCommitOf(repo: FakeRepo): unknown {
  return repo.head !== undefined ? repo.head : headOf(repo.files);
}

/** `repo` as it was at `rev` ("HEAD", the head's id or an earlier commit's); null for a commit it never had. */
export function repoAt(repo: FakeRepo, rev: string): FakeRepo | null {
  if (rev === "HEAD" || rev === headCommitOf(repo)) return repo;
  const files = repo.commits?.[rev];
  return files ? { ...repo, files } : null;
}

/** A commit id standing for the files: 40 lowercase hex digits that change whenever they do. */
export function headOf(files: Record<string, string>): string {
  return new Bun.CryptoHasher("sha1").update(JSON.stringify(Object.entries(files).sort())).digest("hex");
}

/** A weak ETag over the body, as the platform sends for repositories. */
export function etagOf(body: unknown): string {
  return `W/"${Bun.hash(platformJson(body)).toString(16)}"`;
}

/** JSON as the platform writes it: a count past 2^53 goes out as a bare integer literal, not a string. */
export function platformJson(body: unknown): string {
  return JSON.stringify(body, (_key, value) => (typeof value === "bigint" ? `__bigint__${value}` : value)).replace(
    /"__bigint__(\d+)"/g,
    "$1",
  );
}

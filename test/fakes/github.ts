/**
 * A fake of the hosting platform: a real HTTP server on 127.0.0.1 answering the REST and GraphQL
 * calls the refresher makes, in the platform's shapes, with ETag/304, rate-limit headers and
 * budgets per resource (and `/rate_limit`), redirects for renamed repositories, 404 for deleted
 * ones, searches capped at 1,000 results (422 past it), file contents, and failures a test can ask
 * for. It counts every call so tests can assert on them.
 */
import { graphqlResponse } from "./github-graphql";
import { etagOf, type FakeRepo, fullName, platformJson, type RepoSeed, RepoStore, restBody } from "./github-repos";
import { matchCode, matchesRepoQuery, searchOrder } from "./github-search";

export type Route = "repos" | "contents" | "search" | "code" | "graphql" | "rate_limit";
export type Resource = "core" | "search" | "code_search" | "graphql";
const RESOURCE: Record<Exclude<Route, "rate_limit">, Resource> = {
  repos: "core",
  contents: "core",
  search: "search",
  code: "code_search",
  graphql: "graphql",
};
const LIMITS: Record<Resource, [anonymous: number, token: number]> = {
  core: [60, 5000],
  search: [10, 30],
  code_search: [0, 10],
  graphql: [0, 5000],
};
/** Search budgets renew every minute, the others every hour. */
const WINDOW_SECONDS: Record<Resource, number> = { core: 3600, search: 60, code_search: 60, graphql: 3600 };
const SEARCH_CAP = 1000;
/** The contents API sends a file's content up to 1 MB; past it, only its metadata. */
const CONTENTS_MAX_BYTES = 1024 * 1024;

export interface FakeOptions {
  /** Shorter budget windows (seconds) per resource, so a test sees a window renew. */
  windows?: Partial<Record<Resource, number>>;
  /** Smaller budgets per window, so a test spends one quickly. */
  limits?: Partial<Record<Resource, number>>;
}

interface Budget {
  limit: number;
  remaining: number;
  reset: number;
}
/** 403 and 429 failures are secondary rate limits, as the platform sends them; others are server errors. */
export interface Failure {
  route: Route;
  status: number;
  times: number;
  retryAfter?: number;
  message?: string;
}
export interface Gate {
  arrived: Promise<void>;
  release(): void;
}

export class FakeGitHub {
  readonly repos = new RepoStore();
  /** Calls per route, and per route and status (`repos 304`, `graphql 200`). */
  readonly calls: Record<string, number> = {};
  readonly queries: string[] = [];
  graphqlPoints = 0;
  /** GraphQL fields left out of every node: a broken platform response. */
  readonly omitFields = new Set<string>();
  private readonly budgets = new Map<string, Budget>();
  private readonly failures: Failure[] = [];
  /** GraphQL queries holding this text fail with a 502, every time: one query failing among others. */
  failQueriesHolding: string | null = null;
  private readonly gates = new Map<Route, { resolveArrived: () => void; released: Promise<void> }>();
  private readonly server: ReturnType<typeof Bun.serve>;
  readonly url: string;

  private readonly windows: Record<Resource, number>;
  private readonly limits: Partial<Record<Resource, number>>;

  constructor(options: FakeOptions = {}) {
    this.windows = { ...WINDOW_SECONDS, ...options.windows };
    this.limits = options.limits ?? {};
    this.server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (request) => this.handle(request) });
    this.url = `http://127.0.0.1:${this.server.port}`;
  }

  add(...seeds: RepoSeed[]): FakeRepo[] {
    return seeds.map((s) => this.repos.add(s));
  }

  count(key: string): number {
    return this.calls[key] ?? 0;
  }

  /** Sets what is left of a budget (both the anonymous and the token one), resetting `resetIn` seconds from now. */
  setRemaining(resource: Resource, remaining: number, resetIn = this.windows[resource]): void {
    for (const auth of [false, true]) this.budget(resource, auth).remaining = remaining;
    for (const auth of [false, true]) this.budget(resource, auth).reset = Math.ceil(Date.now() / 1000) + resetIn;
  }

  /** Every budget back to full, as at the top of the hour. */
  resetBudgets(): void {
    this.budgets.clear();
  }

  /** The next `times` calls to `route` fail with `status` (429/403 with Retry-After when given). */
  fail(failure: Failure): void {
    this.failures.push({ ...failure });
  }

  /** Holds calls to `route` until released; `arrived` resolves when the first one comes in. */
  hold(route: Route): Gate {
    let resolveArrived!: () => void;
    let release!: () => void;
    const arrived = new Promise<void>((r) => (resolveArrived = r));
    this.gates.set(route, { resolveArrived, released: new Promise<void>((r) => (release = r)) });
    return {
      arrived,
      release: () => {
        this.gates.delete(route);
        release();
      },
    };
  }

  stop(): void {
    for (const route of [...this.gates.keys()]) this.gates.delete(route);
    this.server.stop(true);
  }

  private budget(resource: Resource, auth: boolean): Budget {
    const key = `${resource}:${auth}`;
    let budget = this.budgets.get(key);
    const now = Math.floor(Date.now() / 1000);
    if (!budget || now >= budget.reset) {
      const limit = this.limits[resource] ?? LIMITS[resource][auth ? 1 : 0];
      budget = { limit, remaining: limit, reset: now + this.windows[resource] };
      this.budgets.set(key, budget);
    }
    return budget;
  }

  private tally(route: Route, status: number): void {
    this.calls[route] = this.count(route) + 1;
    this.calls[`${route} ${status}`] = this.count(`${route} ${status}`) + 1;
  }

  private async handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const route = this.routeOf(request.method, url.pathname);
    if (!route) return this.json(404, { message: "Not Found", documentation_url: "https://docs.github.com/rest" });
    const gate = this.gates.get(route);
    if (gate) {
      gate.resolveArrived();
      await gate.released;
    }
    const auth = /^(token|bearer) \S+/i.test(request.headers.get("authorization") ?? "");
    const response = await this.answer(route, request, url, auth);
    this.tally(route, response.status);
    return response;
  }

  private routeOf(method: string, path: string): Route | null {
    if (method === "POST" && path === "/graphql") return "graphql";
    if (method !== "GET") return null;
    if (path === "/search/repositories") return "search";
    if (path === "/search/code") return "code";
    if (path === "/rate_limit") return "rate_limit";
    if (/^\/repos\/[^/]+\/[^/]+\/contents\/.+$/.test(path)) return "contents";
    return /^\/(repos\/[^/]+\/[^/]+|repositories\/\d+)$/.test(path) ? "repos" : null;
  }

  private async answer(route: Route, request: Request, url: URL, auth: boolean): Promise<Response> {
    // Asking for the budgets costs none of them.
    if (route === "rate_limit") return this.rateLimit(auth);
    const resource = RESOURCE[route];
    if (!auth && (resource === "graphql" || resource === "code_search")) {
      return this.json(401, { message: "Requires authentication", documentation_url: "https://docs.github.com/rest" });
    }
    const budget = this.budget(resource, auth);
    const headers = () => this.limitHeaders(resource, budget);
    const failure = this.failures.find((f) => f.route === route && f.times > 0);
    if (failure) {
      failure.times--;
      return this.failureResponse(failure, headers());
    }
    if (budget.remaining <= 0) return this.exhausted(route, headers());
    if (route === "graphql") {
      const body = (await request.json()) as { query: string; variables?: Record<string, string> };
      if (this.failQueriesHolding !== null && body.query.includes(this.failQueriesHolding))
        return this.json(502, { message: "Server Error" }, headers());
      const { payload, cost } = graphqlResponse(this.repos, body.query, body.variables ?? {}, budget, this.omitFields);
      budget.remaining -= cost;
      this.graphqlPoints += cost;
      return this.json(200, payload, headers());
    }
    if (route === "search" || route === "code") return this.search(route, url, budget, headers);
    if (route === "contents") return this.contents(url, budget, headers, request.headers.get("accept") ?? "");
    return this.repository(url, request, budget, headers);
  }

  private rateLimit(auth: boolean): Response {
    const resources: Record<string, unknown> = {};
    for (const resource of Object.keys(LIMITS) as Resource[]) {
      const b = this.budget(resource, auth);
      resources[resource] = {
        limit: b.limit,
        used: b.limit - Math.max(b.remaining, 0),
        remaining: Math.max(b.remaining, 0),
        reset: b.reset,
      };
    }
    return this.json(200, { resources, rate: resources.core });
  }

  /**
   * `GET /repos/{owner}/{repo}/contents/{path}`: a file, base64-encoded as the platform sends it;
   * past 1 MB without content (`"encoding": "none"`), and as the raw bytes for the raw media type.
   */
  private contents(url: URL, budget: Budget, headers: () => Record<string, string>, accept: string): Response {
    budget.remaining--;
    const [, , owner, name, , ...rest] = url.pathname.split("/");
    const path = decodeURIComponent(rest.join("/"));
    const content = this.repos.lookup(`${owner}/${name}`)?.repo.files[path];
    if (content === undefined)
      return this.json(
        404,
        {
          message: "Not Found",
          documentation_url: "https://docs.github.com/rest/repos/contents#get-repository-content",
          status: "404",
        },
        headers(),
      );
    const size = Buffer.byteLength(content);
    if (/application\/vnd\.github(?:\.v3)?\.raw/.test(accept)) {
      return new Response(content, { headers: { "Content-Type": "text/plain; charset=utf-8", ...headers() } });
    }
    const large = size > CONTENTS_MAX_BYTES;
    return this.json(
      200,
      {
        type: "file",
        encoding: large ? "none" : "base64",
        size,
        name: path.slice(path.lastIndexOf("/") + 1),
        path,
        sha: Bun.hash(content).toString(16),
        content: large
          ? ""
          : Buffer.from(content)
              .toString("base64")
              .replace(/(.{60})/g, "$1\n"),
      },
      headers(),
    );
  }

  private search(route: Route, url: URL, budget: Budget, headers: () => Record<string, string>): Response {
    const q = url.searchParams.get("q") ?? "";
    this.queries.push(q);
    const perPage = Math.min(Number(url.searchParams.get("per_page") ?? 30), 100);
    const page = Number(url.searchParams.get("page") ?? 1);
    budget.remaining--;
    if ((page - 1) * perPage >= SEARCH_CAP) {
      return this.json(
        422,
        {
          message: "Only the first 1000 search results are available",
          documentation_url: "https://docs.github.com/v3/search/",
        },
        headers(),
      );
    }
    const slice = <T>(all: T[]) => all.slice((page - 1) * perPage, page * perPage);
    if (route === "code") {
      const hits = this.repos
        .all()
        .sort(searchOrder)
        .flatMap((r) => matchCode(r, q));
      const items = slice(hits).map(({ repo, path }) => ({
        name: path.slice(path.lastIndexOf("/") + 1),
        path,
        sha: "3f2a",
        url: `${this.url}/repositories/${repo.id}/contents/${path}`,
        repository: restBody(repo, this.url),
        score: 1,
      }));
      return this.json(200, { total_count: hits.length, incomplete_results: false, items }, headers());
    }
    const matches = this.repos
      .all()
      .filter((r) => matchesRepoQuery(r, q))
      .sort(searchOrder);
    const items = slice(matches).map((r) => ({ ...restBody(r, this.url), score: 1 }));
    return this.json(200, { total_count: matches.length, incomplete_results: false, items }, headers());
  }

  private repository(url: URL, request: Request, budget: Budget, headers: () => Record<string, string>): Response {
    const byNumber = /^\/repositories\/(\d+)$/.exec(url.pathname);
    const found = byNumber
      ? (() => {
          const repo = this.repos.byNumber(Number(byNumber[1]));
          return repo ? { repo, moved: false } : null;
        })()
      : this.repos.lookup(url.pathname.replace(/^\/repos\//, ""));
    if (found?.moved) {
      budget.remaining--;
      const location = `${this.url}/repositories/${found.repo.id}`;
      return this.json(
        301,
        { message: "Moved Permanently", url: location, documentation_url: "https://docs.github.com/rest" },
        { ...headers(), Location: location },
      );
    }
    if (!found) {
      budget.remaining--;
      return this.json(
        404,
        {
          message: "Not Found",
          documentation_url: "https://docs.github.com/rest/repos/repos#get-a-repository",
          status: "404",
        },
        headers(),
      );
    }
    const body = restBody(found.repo, this.url);
    const etag = etagOf(body);
    // A conditional request answered 304 costs nothing against the limit.
    if (request.headers.get("if-none-match") === etag)
      return new Response(null, { status: 304, headers: { ...headers(), ETag: etag } });
    budget.remaining--;
    return this.json(200, body, { ...headers(), ETag: etag });
  }

  private limitHeaders(resource: Resource, budget: Budget): Record<string, string> {
    return {
      "x-ratelimit-limit": String(budget.limit),
      "x-ratelimit-remaining": String(Math.max(budget.remaining, 0)),
      "x-ratelimit-reset": String(budget.reset),
      "x-ratelimit-used": String(budget.limit - Math.max(budget.remaining, 0)),
      "x-ratelimit-resource": resource,
    };
  }

  private exhausted(route: Route, headers: Record<string, string>): Response {
    const message =
      "API rate limit exceeded for 127.0.0.1. (But here's the good news: Authenticated requests get a higher rate limit.)";
    if (route === "graphql")
      return this.json(
        200,
        { errors: [{ type: "RATE_LIMITED", message: "API rate limit already exceeded for user ID 1." }] },
        headers,
      );
    return this.json(
      403,
      { message, documentation_url: "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api" },
      headers,
    );
  }

  private failureResponse(failure: Failure, headers: Record<string, string>): Response {
    const extra: Record<string, string> =
      failure.retryAfter !== undefined ? { "Retry-After": String(failure.retryAfter) } : {};
    const message =
      failure.message ??
      (failure.status === 403 || failure.status === 429
        ? "You have exceeded a secondary rate limit. Please wait a few minutes before you try again."
        : "Server Error");
    return this.json(
      failure.status,
      { message, documentation_url: "https://docs.github.com/rest" },
      { ...headers, ...extra },
    );
  }

  private json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
    return new Response(platformJson(body), {
      status,
      headers: { "Content-Type": "application/json; charset=utf-8", ...headers },
    });
  }
}

export { type FakeRepo, fullName };

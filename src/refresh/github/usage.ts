/**
 * What a refresh spends on the hosting platform: every HTTP call by kind, GraphQL points, the
 * budget each rate-limit resource reports, and the waits the platform asked for.
 */

export type CallKind = "search" | "code" | "graphql" | "rest" | "conditional";

export interface Budget {
  limit: number;
  remaining: number;
  resetAt: Date;
}

export interface Wait {
  reason: "rate-limit" | "secondary-limit";
  seconds: number;
  url: string;
}

export class Usage {
  readonly calls: Record<CallKind, number> = { search: 0, code: 0, graphql: 0, rest: 0, conditional: 0 };
  graphqlPoints = 0;
  /** GraphQL queries of repositories in batches of up to 100, before their follow-ups (in `graphql` too). */
  batchQueries = 0;
  /** GraphQL queries that read skill folders' SKILL.md after a batch (counted in `graphql` too). */
  skillQueries = 0;
  /** GraphQL queries that read marketplace plugins' command, agent and SKILL.md files after those (in `graphql` too). */
  pluginFileQueries = 0;
  /** GraphQL queries that read the folders and files marketplace plugins' plugin.json files list (in `graphql` too). */
  pluginListedQueries = 0;
  readonly budgets = new Map<string, Budget>();
  readonly waits: Wait[] = [];

  /** Counts one call (none for `/rate_limit`, which is free) and reads the platform's `x-ratelimit-*` headers. */
  record(kind: CallKind | null, headers: Headers): void {
    if (kind) this.calls[kind]++;
    const resource = headers.get("x-ratelimit-resource");
    const limit = Number(headers.get("x-ratelimit-limit"));
    const remaining = Number(headers.get("x-ratelimit-remaining"));
    const reset = Number(headers.get("x-ratelimit-reset"));
    if (resource && headers.has("x-ratelimit-remaining") && Number.isFinite(remaining) && Number.isFinite(reset)) {
      this.setBudget(resource, { limit, remaining, resetAt: new Date(reset * 1000) });
    }
  }

  /**
   * Takes a budget the platform reported. Responses to calls in flight together arrive in any
   * order: within one window the lower count wins, and a report of an older window is ignored.
   */
  setBudget(resource: string, budget: Budget): void {
    const known = this.budgets.get(resource);
    if (known && budget.resetAt.getTime() < known.resetAt.getTime()) return;
    const sameWindow = known && known.resetAt.getTime() === budget.resetAt.getTime();
    if (sameWindow) budget.remaining = Math.min(known.remaining, budget.remaining);
    this.budgets.set(resource, budget);
  }

  /** Adds a GraphQL query's cost as its `rateLimit` field reports it. */
  addPoints(cost: number, remaining: number, resetAt: string): void {
    this.graphqlPoints += cost;
    const previous = this.budgets.get("graphql");
    const reset = new Date(resetAt);
    if (Number.isNaN(reset.getTime())) return;
    this.setBudget("graphql", { limit: previous?.limit ?? remaining + cost, remaining, resetAt: reset });
  }

  /** Every call of the run, whatever its kind. */
  get total(): number {
    return Object.values(this.calls).reduce((a, b) => a + b, 0);
  }

  /** `core 57/60, search 9/10`: the budget left per resource, for progress lines. */
  budgetText(): string {
    if (this.budgets.size === 0) return "unknown";
    return [...this.budgets].map(([name, b]) => `${name} ${b.remaining}/${b.limit}`).join(", ");
  }

  /** The GraphQL queries by kind: the batches of repositories, and each follow-up round after them (retries not counted). */
  graphqlKinds(): { batches: number; skill: number; plugin_files: number; plugin_listed: number; points: number } {
    const skill = this.skillQueries;
    const plugin_files = this.pluginFileQueries;
    const plugin_listed = this.pluginListedQueries;
    return { batches: this.batchQueries, skill, plugin_files, plugin_listed, points: this.graphqlPoints };
  }

  /** `search 4, code search 1, graphql 10 (10 points; follow-ups: 2 skill folders, 1 plugin files, 1 listed paths), rest 3, rest 304 997 (free)`. */
  callsText(): string {
    const c = this.calls;
    const k = this.graphqlKinds();
    const rounds: Array<[number, string]> = [
      [k.skill, "skill folders"],
      [k.plugin_files, "plugin files"],
      [k.plugin_listed, "listed paths"],
    ];
    const named = rounds.filter(([n]) => n > 0).map(([n, what]) => `${n} ${what}`);
    return (
      `search ${c.search}, code search ${c.code}, graphql ${c.graphql} (${this.graphqlPoints} points` +
      `${named.length ? `; follow-ups: ${named.join(", ")}` : ""}), ` +
      `rest ${c.rest}, rest 304 ${c.conditional} (free)`
    );
  }
}

/** The kind of a platform call, from its path and status; null for `/rate_limit`, which is free. */
export function callKind(url: string, status: number): CallKind | null {
  const path = new URL(url).pathname;
  if (path.endsWith("/rate_limit")) return null;
  if (path.endsWith("/graphql")) return "graphql";
  if (path.endsWith("/search/code")) return "code";
  if (path.includes("/search/")) return "search";
  return status === 304 ? "conditional" : "rest";
}

/** A fetch that records every call it makes in `usage`: what reaches the wire, retries included. */
export function countingFetch(usage: Usage, base: typeof fetch = fetch): typeof fetch {
  const counted = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const response = await base(input, init);
    const url = input instanceof Request ? input.url : String(input);
    usage.record(callKind(url, response.status), response.headers);
    return response;
  };
  return Object.assign(counted, { preconnect: base.preconnect }) as typeof fetch;
}

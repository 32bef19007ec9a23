/**
 * The hosting platform's client: Octokit with the throttling and retry plugins configured as their
 * documentation describes. Waits the platform asks for (Retry-After, x-ratelimit-reset) are honoured
 * when short; a longer one ends the run with BudgetExhausted, so the refresh finishes later instead
 * of publishing part of the catalog.
 */
import { retry } from "@octokit/plugin-retry";
import { throttling } from "@octokit/plugin-throttling";
import { Octokit } from "@octokit/rest";
import Bottleneck from "bottleneck";
import { countingFetch, Usage, type Wait } from "./usage";
import type { Log } from "../log";

export type { Log };

/** Spacing of calls. The defaults are the throttling plugin's own (the platform's guidance); tests shorten them. */
export interface Pacing {
  /** Between two searches: the search API allows 30 calls a minute with a token. */
  searchMs: number;
  /** Between two GraphQL queries. */
  graphqlMs: number;
  /** One second of Retry-After, x-ratelimit-reset or retry back-off, in milliseconds. */
  retryAfterBaseMs: number;
}

export const DEFAULT_PACING: Pacing = { searchMs: 2000, graphqlMs: 1000, retryAfterBaseMs: 1000 };

/** How many times one request may wait for a rate limit before the run gives up. */
const MAX_LIMIT_WAITS = 3;

export interface GitHubOptions {
  apiUrl: string;
  token?: string;
  /** Waits longer than this end the run (BudgetExhausted) instead of blocking it. */
  maxWaitSeconds: number;
  pacing?: Partial<Pacing>;
  log: Log;
}

/** The platform's budget ran out and will not be back within the allowed wait. */
export class BudgetExhausted extends Error {
  override name = "BudgetExhausted";
  constructor(readonly resetAt: Date, readonly url: string) {
    super(`API budget exhausted until ${resetAt.toISOString()} (at ${url})`);
  }
}

const Client = Octokit.plugin(throttling, retry);
export type Octo = InstanceType<typeof Client>;

export interface GitHub {
  octokit: Octo;
  usage: Usage;
  authenticated: boolean;
  /** Rethrows `error` as BudgetExhausted when the limit handlers gave up waiting for it. */
  budgetError(error: unknown): unknown;
}

/** A client for one refresh run, counting its calls. */
export function createGitHub(options: GitHubOptions): GitHub {
  const usage = new Usage();
  const pacing = { ...DEFAULT_PACING, ...options.pacing };
  let exhausted: BudgetExhausted | null = null;
  const decide = (reason: Wait["reason"], seconds: number, url: string, retryCount: number): boolean => {
    usage.waits.push({ reason, seconds, url });
    if (seconds <= options.maxWaitSeconds && retryCount < MAX_LIMIT_WAITS) {
      options.log("refresh.rate_limited", { reason, waitSeconds: seconds, url });
      return true;
    }
    exhausted = new BudgetExhausted(new Date(Date.now() + seconds * 1000), url);
    return false;
  };
  const octokit = new Client({
    auth: options.token,
    baseUrl: options.apiUrl,
    userAgent: "plugin-catalog-refresh",
    request: { fetch: countingFetch(usage) },
    log: {
      debug: () => {},
      info: () => {},
      warn: (message: string) => options.log("github.warn", { message }),
      error: (message: string) => options.log("github.error", { message }),
    },
    throttle: {
      retryAfterBaseValue: pacing.retryAfterBaseMs,
      search: new Bottleneck.Group({ maxConcurrent: 1, minTime: pacing.searchMs }),
      write: new Bottleneck.Group({ maxConcurrent: 1, minTime: pacing.graphqlMs }),
      onRateLimit: (after, request, _octokit, count) => decide("rate-limit", after, request.url, count),
      onSecondaryRateLimit: (after, request, _octokit, count) => decide("secondary-limit", after, request.url, count),
    },
    retry: { retryAfterBaseValue: pacing.retryAfterBaseMs },
  });
  return {
    octokit,
    usage,
    authenticated: options.token !== undefined,
    budgetError: (error) => exhausted ?? error,
  };
}

/** The HTTP status of an Octokit error, if it has one. */
export function statusOf(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === "number" ? status : undefined;
}

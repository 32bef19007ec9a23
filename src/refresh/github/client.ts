/**
 * The hosting platform's client: Octokit with the throttling and retry plugins configured as their
 * documentation describes, and a pacer (pacing.ts) that spends each resource's budget as the
 * platform reports it, instead of the throttling plugin's fixed spacing. Waits the platform asks
 * for (Retry-After on a secondary limit, x-ratelimit-reset) are honoured when short; a longer one
 * ends the run with BudgetExhausted, so the refresh finishes later instead of publishing part of
 * the catalog.
 */
import { retry } from "@octokit/plugin-retry";
import { throttling } from "@octokit/plugin-throttling";
import { Octokit } from "@octokit/rest";
import Bottleneck from "bottleneck";
import type { Log } from "../../base/log";
import { Pacer } from "./pacing";
import { countingFetch, Usage, type Wait } from "./usage";

/** How a Retry-After is timed; tests shorten it. The budgets themselves are paced by the platform's numbers. */
export interface Pacing {
  /** One second of Retry-After or retry back-off, in milliseconds. */
  retryAfterBaseMs: number;
}

export const DEFAULT_PACING: Pacing = { retryAfterBaseMs: 1000 };

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
  constructor(
    readonly resetAt: Date,
    readonly url: string,
  ) {
    super(`API budget exhausted until ${resetAt.toISOString()} (at ${url})`);
  }
}

const Client = Octokit.plugin(throttling, retry);
export type Octo = InstanceType<typeof Client>;

export interface GitHub {
  octokit: Octo;
  usage: Usage;
  authenticated: boolean;
  /** Reads every resource's budget from `/rate_limit` (free), so pacing is right from the first call. */
  readBudgets(): Promise<void>;
}

interface RateLimitBody {
  resources?: Record<string, { limit?: unknown; remaining?: unknown; reset?: unknown }>;
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
  const pacer = new Pacer({
    usage,
    onWait: (resource, seconds, resetAt) => {
      if (seconds > options.maxWaitSeconds) {
        exhausted = new BudgetExhausted(resetAt, resource);
        throw exhausted;
      }
      usage.waits.push({ reason: "rate-limit", seconds, url: resource });
      options.log("refresh.rate_limited", { reason: "budget spent", resource, waitSeconds: seconds });
    },
  });
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
      // One search and one GraphQL query at a time, as the platform asks; their budgets are the pacer's.
      search: new Bottleneck.Group({ maxConcurrent: 1, minTime: 0 }),
      write: new Bottleneck.Group({ maxConcurrent: 1, minTime: 0 }),
      onRateLimit: (after, request, _octokit, count) => decide("rate-limit", after, request.url, count),
      onSecondaryRateLimit: (after, request, _octokit, count) => decide("secondary-limit", after, request.url, count),
    },
    retry: { retryAfterBaseValue: pacing.retryAfterBaseMs },
  });
  // Once a limit handler gave up waiting, every call that fails says so: the one place a caller learns of it.
  octokit.hook.wrap("request", async (request, options) => {
    try {
      return await pacer.run(options.url, async () => request(options));
    } catch (error) {
      throw exhausted ?? error;
    }
  });
  return {
    octokit,
    usage,
    authenticated: options.token !== undefined,
    readBudgets: async () => {
      let data: unknown;
      try {
        ({ data } = await octokit.request("GET /rate_limit"));
      } catch (error) {
        // Without it the first call of each resource reads the budget from its headers instead.
        options.log("refresh.rate_limit_unknown", { status: statusOf(error) ?? null });
        return;
      }
      for (const [resource, b] of Object.entries((data as RateLimitBody).resources ?? {})) {
        const [limit, remaining, reset] = [Number(b.limit), Number(b.remaining), Number(b.reset)];
        if (![limit, remaining, reset].every(Number.isFinite)) continue;
        usage.setBudget(resource, { limit, remaining, resetAt: new Date(reset * 1000) });
      }
    },
  };
}

/** The HTTP status of an Octokit error, if it has one. */
export function statusOf(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === "number" ? status : undefined;
}

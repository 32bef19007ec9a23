/** The limits of one run's remote checks (REMOTE_PROBE_*), apart from the code that asks, so reading them loads no client. */
import type { TestAllowance } from "./guard";

export interface RemoteLimits {
  /** The time all of one run's remote checks may take together; 0: remotes are never asked. */
  budgetMs: number;
  /** One server's time limit, card and handshake together. */
  timeoutMs: number;
  /** Servers asked at once, apart from the package registries' limit. */
  concurrency: number;
  /** An answer this recent, from the same address, is kept without asking again. */
  reuseHours: number;
}

export interface RemoteOptions {
  limits: RemoteLimits;
  /** Tests only, passed in code: how the guard reaches fakes on this machine (guard.ts). */
  allowance?: TestAllowance;
}

// Under the six-hourly refresh a remote is asked about once a day, so a server is not polled for nothing.
export const DEFAULT_REMOTE_LIMITS: RemoteLimits = {
  budgetMs: 60_000,
  timeoutMs: 5000,
  concurrency: 8,
  reuseHours: 20,
};

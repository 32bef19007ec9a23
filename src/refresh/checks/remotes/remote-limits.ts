/** How one run's remote checks are made: their limits (REMOTE_PROBE_*) and, in tests, how the guard reaches fakes. */
import type { RemoteLimits } from "../../../settings";
import type { TestAllowance } from "./remote-guard";

export type { RemoteLimits };

export interface RemoteOptions {
  limits: RemoteLimits;
  /** Tests only, passed in code: how the guard reaches fakes on this machine (remote-guard.ts). */
  allowance?: TestAllowance;
}

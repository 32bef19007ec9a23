/**
 * Pacing by the platform's own numbers: each call waits only when its resource's budget, as the
 * last `x-ratelimit-*` headers (or `/rate_limit`) reported it, is spent, and then exactly until
 * that budget's reset. Search (30 a minute), code search (10 a minute), GraphQL (points an hour)
 * and core (5,000 an hour) are separate budgets, so one never slows another. A wait longer than
 * the run may sit out ends it with BudgetExhausted instead.
 */
import type { Budget, Usage } from "./usage";

export type Resource = "core" | "search" | "code_search" | "graphql";

/** After a reset the platform may still count the old window for a moment. */
const RESET_MARGIN_MS = 500;

/** The budget a call to `url` draws on; null for `/rate_limit`, which costs nothing. */
export function resourceOf(url: string): Resource | null {
  const path = new URL(url, "http://platform.invalid").pathname;
  if (path.endsWith("/rate_limit")) return null;
  if (path.endsWith("/graphql")) return "graphql";
  if (path.endsWith("/search/code")) return "code_search";
  if (path.includes("/search/")) return "search";
  return "core";
}

export interface PacerOptions {
  usage: Usage;
  /** Called before a wait; throws (BudgetExhausted) when the wait is longer than allowed. */
  onWait: (resource: Resource, seconds: number, resetAt: Date) => void;
}

export class Pacer {
  /** One call at a time takes from a resource's budget, so none takes the last unit twice. */
  private readonly turns = new Map<Resource, Promise<void>>();
  /** Calls sent and not yet answered, per resource: the platform's count does not include them yet. */
  private readonly inflight = new Map<Resource, number>();
  /** Takes waiting for an answer, which brings the budget's next numbers. */
  private readonly waiting = new Map<Resource, Array<() => void>>();

  constructor(private readonly options: PacerOptions) {}

  /** Runs `call` once its resource's budget has room for it, counting it in flight until it is answered. */
  async run<T>(url: string, call: () => Promise<T>): Promise<T> {
    const resource = resourceOf(url);
    if (resource === null) return call();
    const turn = (this.turns.get(resource) ?? Promise.resolve()).then(() => this.take(resource));
    this.turns.set(
      resource,
      turn.catch(() => {}),
    );
    await turn;
    try {
      return await call();
    } finally {
      this.inflight.set(resource, (this.inflight.get(resource) ?? 1) - 1);
      for (const wake of this.waiting.get(resource)?.splice(0) ?? []) wake();
    }
  }

  private async take(resource: Resource): Promise<void> {
    const { usage } = this.options;
    for (;;) {
      const budget: Budget | undefined = usage.budgets.get(resource);
      const inflight = this.inflight.get(resource) ?? 0;
      if (!budget || budget.remaining - inflight > 0) break;
      const waitMs = budget.resetAt.getTime() - Date.now() + RESET_MARGIN_MS;
      if (waitMs > 0) {
        this.options.onWait(resource, Math.ceil(waitMs / 1000), budget.resetAt);
        await Bun.sleep(waitMs);
      } else if (inflight > 0) {
        // The window may have turned: the next answer says how much of the new one is left.
        await new Promise<void>((wake) => this.waiting.set(resource, [...(this.waiting.get(resource) ?? []), wake]));
        continue;
      }
      // A new window whose reset the next answer names; until then, its whole budget.
      usage.budgets.set(resource, { limit: budget.limit, remaining: budget.limit, resetAt: new Date(0) });
    }
    this.inflight.set(resource, (this.inflight.get(resource) ?? 0) + 1);
  }
}

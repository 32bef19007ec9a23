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

  constructor(private readonly options: PacerOptions) {}

  /** Waits until a call to `url` fits its resource's budget, and takes one unit of it. */
  acquire(url: string): Promise<void> {
    const resource = resourceOf(url);
    if (resource === null) return Promise.resolve();
    const turn = (this.turns.get(resource) ?? Promise.resolve()).then(() => this.take(resource));
    this.turns.set(
      resource,
      turn.catch(() => {}),
    );
    return turn;
  }

  private async take(resource: Resource): Promise<void> {
    const budget: Budget | undefined = this.options.usage.budgets.get(resource);
    if (!budget) return;
    if (budget.remaining > 0) {
      budget.remaining--;
      return;
    }
    const waitMs = budget.resetAt.getTime() - Date.now() + RESET_MARGIN_MS;
    if (waitMs > 0) {
      this.options.onWait(resource, Math.ceil(waitMs / 1000), budget.resetAt);
      await Bun.sleep(waitMs);
    }
    // A new window: the next response's headers say how much of it is left.
    budget.remaining = Math.max(budget.limit - 1, 0);
    budget.resetAt = new Date(Date.now() + 1000);
  }
}

/**
 * One package registry as an optional, hostile upstream: every request is bounded by a timeout,
 * the run's request count and the run's deadline, and its body by a size cap. Anything but a
 * well-formed JSON answer is `unknown`; a registry that keeps failing is left alone for the run.
 */

/** The limits one run's registry checks share (REGISTRY_MAX_REQUESTS, REGISTRY_TIMEOUT_MS, REGISTRY_BUDGET_MS). */
export interface RegistryLimits {
  maxRequests: number;
  timeoutMs: number;
  budgetMs: number;
}

export const DEFAULT_REGISTRY_LIMITS: RegistryLimits = { maxRequests: 2000, timeoutMs: 5000, budgetMs: 120_000 };

/** A version document is a few kilobytes; a bigger answer is not what was asked for. */
const MAX_BODY_BYTES = 2 * 1024 * 1024;
/** Failures in a row after which a registry is taken as down for the rest of the run. */
const MAX_FAILURES_IN_A_ROW = 5;

export type Answer = { kind: "json"; body: unknown } | { kind: "missing" } | { kind: "unknown"; reason: string };

/** The run's shared allowance: requests left and the moment every pending check gives up. */
export class RegistryBudget {
  requests = 0;
  private readonly deadline: number;
  private readonly stop = new AbortController();
  private readonly timer: ReturnType<typeof setTimeout>;

  constructor(
    readonly limits: RegistryLimits,
    now = Date.now(),
  ) {
    this.deadline = now + limits.budgetMs;
    this.timer = setTimeout(() => this.stop.abort(), limits.budgetMs);
    this.timer.unref?.();
  }

  /** A signal for one more request, or null when the budget is spent. */
  take(): AbortSignal | null {
    if (this.requests >= this.limits.maxRequests || Date.now() >= this.deadline) return null;
    this.requests++;
    return AbortSignal.any([this.stop.signal, AbortSignal.timeout(this.limits.timeoutMs)]);
  }

  end(): void {
    clearTimeout(this.timer);
  }
}

/** The body as text, refused past the cap without reading the rest. */
async function boundedText(response: Response): Promise<string | null> {
  const declared = Number(response.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES || !response.body) return null;
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.byteLength;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk);
  }
  return new TextDecoder("utf-8", { fatal: false }).decode(Buffer.concat(chunks));
}

export class RegistryClient {
  private failures = 0;

  constructor(
    readonly base: string,
    private readonly budget: RegistryBudget,
  ) {}

  get down(): boolean {
    return this.failures >= MAX_FAILURES_IN_A_ROW;
  }

  /** GET `base + path` as JSON: 404 is `missing`; a timeout, 429, 5xx or malformed body is `unknown`. */
  get(path: string): Promise<Answer> {
    return this.send(path, { headers: { accept: "application/json" } });
  }

  /** POST a JSON body to `base + path` (a batch endpoint), answered as `get` answers. */
  post(path: string, body: unknown): Promise<Answer> {
    return this.send(path, {
      method: "POST",
      body: JSON.stringify(body),
      headers: { accept: "application/json", "content-type": "application/json" },
    });
  }

  private async send(path: string, init: RequestInit): Promise<Answer> {
    if (this.down) return { kind: "unknown", reason: "registry down" };
    const signal = this.budget.take();
    if (signal === null) return { kind: "unknown", reason: "budget spent" };
    try {
      const response = await fetch(this.base + path, { ...init, signal, redirect: "error" });
      if (response.status === 404) {
        await response.body?.cancel();
        this.failures = 0;
        return { kind: "missing" };
      }
      if (response.status !== 200) {
        await response.body?.cancel();
        return this.failed(`status ${response.status}`);
      }
      const text = await boundedText(response);
      if (text === null) return this.failed("answer too large");
      const body: unknown = JSON.parse(text);
      this.failures = 0;
      return { kind: "json", body };
    } catch (error) {
      return this.failed(error instanceof SyntaxError ? "malformed answer" : "no answer");
    }
  }

  private failed(reason: string): Answer {
    this.failures++;
    return { kind: "unknown", reason };
  }
}

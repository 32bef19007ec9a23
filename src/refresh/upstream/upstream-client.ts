/**
 * One package registry as an optional, hostile upstream: every request is bounded by a timeout,
 * the run's request count and the run's deadline, and its body by a size cap. Anything but a
 * well-formed JSON answer is `unknown`; a registry that keeps failing is left alone for the run.
 */

import type { RequestLimits } from "../../settings";

/** A version document is a few kilobytes; a bigger answer is not what was asked for. */
const MAX_BODY_BYTES = 2 * 1024 * 1024;
/** Failures in a row after which a registry is taken as down for the rest of the run. */
const MAX_FAILURES_IN_A_ROW = 5;

export type Answer = { kind: "json"; body: unknown } | { kind: "missing" } | { kind: "unknown"; reason: string };

/** The run's shared allowance: requests left and the moment every pending check gives up. */
export class UpstreamBudget {
  requests = 0;
  private readonly deadline: number;
  private readonly stop = new AbortController();
  private readonly timer: ReturnType<typeof setTimeout>;

  constructor(
    readonly limits: RequestLimits,
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

/** The body's bytes, refused past the cap without reading the rest. */
async function boundedBytes(response: Response): Promise<Uint8Array | null> {
  const declared = Number(response.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES || !response.body) return null;
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.byteLength;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** An answer as it came: its status and headers, and the body of a 200 (others' bodies are not read). */
export type Raw =
  | { kind: "answer"; status: number; headers: Headers; bytes: Uint8Array }
  | { kind: "unknown"; reason: string };

export class UpstreamClient {
  private failures = 0;

  constructor(
    readonly base: string,
    private readonly budget: UpstreamBudget,
  ) {}

  get down(): boolean {
    return this.failures >= MAX_FAILURES_IN_A_ROW;
  }

  /**
   * One request under the budget, redirects not followed: a timeout, 429, 5xx or an oversized
   * body is `unknown` (and counts toward taking the registry as down); any other status is an
   * answer, which the caller judges (`succeeded`, `failed`).
   */
  async send(url: string, headers: Record<string, string>, body?: string): Promise<Raw> {
    if (this.down) return { kind: "unknown", reason: "registry down" };
    const signal = this.budget.take();
    if (signal === null) return { kind: "unknown", reason: "budget spent" };
    try {
      const method = body === undefined ? "GET" : "POST";
      const response = await fetch(url, { method, body, signal, redirect: "manual", headers });
      if (response.status !== 200) {
        await response.body?.cancel();
        if (response.status === 429 || response.status >= 500) return this.failed(`status ${response.status}`);
        return { kind: "answer", status: response.status, headers: response.headers, bytes: new Uint8Array() };
      }
      const bytes = await boundedBytes(response);
      if (bytes === null) return this.failed("answer too large");
      return { kind: "answer", status: 200, headers: response.headers, bytes };
    } catch {
      return this.failed("no answer");
    }
  }

  /** GET `base + path` as JSON: 404 is `missing`; a timeout, 429, 5xx, other status or malformed body is `unknown`. */
  async get(path: string): Promise<Answer> {
    return this.json(await this.send(this.base + path, { accept: "application/json" }));
  }

  /** POST a JSON body to `base + path` (a batch endpoint), answered as `get` answers. */
  async post(path: string, body: unknown): Promise<Answer> {
    const headers = { accept: "application/json", "content-type": "application/json" };
    return this.json(await this.send(this.base + path, headers, JSON.stringify(body)));
  }

  private json(raw: Raw): Answer {
    if (raw.kind === "unknown") return raw;
    if (raw.status === 404) {
      this.failures = 0;
      return { kind: "missing" };
    }
    if (raw.status !== 200) return this.failed(`status ${raw.status}`);
    try {
      const body: unknown = JSON.parse(new TextDecoder("utf-8", { fatal: false }).decode(raw.bytes));
      this.failures = 0;
      return { kind: "json", body };
    } catch {
      return this.failed("malformed answer");
    }
  }

  /** A sound answer: the failures in a row start again. */
  succeeded(): void {
    this.failures = 0;
  }

  /** Counts a failure; the registry is left alone for the run after a few in a row. */
  failed(reason: string): { kind: "unknown"; reason: string } {
    this.failures++;
    return { kind: "unknown", reason };
  }
}

/**
 * The refresh step that asks remote MCP servers what they are (remote-probe.ts): the first Streamable
 * HTTP remote of each fetched plugin's server.json, each address once per run, a few at a time
 * (its own concurrency limit, apart from the package registries'), all within the run's budget for
 * it. A plugin whose remote was asked recently, at the same address, keeps that answer without a
 * request. What a remote says never fails the refresh: the details pass their schema again before
 * they replace the fetched ones, and a remote not asked in time keeps its earlier answer or none.
 */
import { type PluginDetails, validDetails } from "../../../catalog/model/details";
import type { RemoteAnswer, RemoteTool } from "../../../catalog/model/remote";
import type { Outcome } from "../../fetch/outcome";
import type { RemoteOptions } from "./remote-limits";
import { type ProbeResult, probeRemote } from "./remote-probe";

type Fetched = Extract<Outcome, { kind: "fetched" }> & { details: PluginDetails };

/** An MCP handshake and a tool list are a few kilobytes; a hundred tools with long descriptions stay well under. */
const MAX_BODY_BYTES = 1024 * 1024;

export interface RemoteCounts {
  asked: number;
  reused: number;
  late: number;
  answering: number;
  auth_required: number;
  not_mcp: number;
  down: number;
}

/** What the previous snapshot said about a plugin's remote. */
export type Earlier = (id: string) => { remote?: RemoteAnswer; tools?: RemoteTool[] } | undefined;

/** The first Streamable HTTP remote of the plugin's install lines: the one a client would add. */
export function remoteOf(details: PluginDetails): string | null {
  for (const line of details.install) {
    if (line.kind !== "remote" || line.harness !== "mcp" || !line.config) continue;
    const servers = line.config.mcpServers as Record<string, { type?: unknown; url?: unknown }> | undefined;
    const server = servers ? Object.values(servers)[0] : undefined;
    if (server?.type === "http" && typeof server.url === "string") return server.url;
  }
  return null;
}

function recorded(details: PluginDetails, remote: RemoteAnswer, tools: RemoteTool[]): PluginDetails | null {
  return validDetails({ ...details, remote, tools });
}

/**
 * Asks each fetched plugin's remote (outcomes by the id asked for) within `options.limits`;
 * `earlier` gives the previous snapshot's answer. Returns what it found, by status.
 */
export async function checkRemotes(
  outcomes: Iterable<[string, Outcome]>,
  earlier: Earlier,
  options: RemoteOptions,
  now: () => Date,
): Promise<RemoteCounts> {
  const { limits } = options;
  const counts: RemoteCounts = { asked: 0, reused: 0, late: 0, answering: 0, auth_required: 0, not_mcp: 0, down: 0 };
  const started = Date.now();
  const deadline = started + limits.budgetMs;
  const fresh = now().getTime() - limits.reuseHours * 3_600_000;
  const todo = new Map<string, Array<[string, Fetched]>>();
  for (const [asked, outcome] of outcomes) {
    if (outcome.kind !== "fetched" || !outcome.details) continue;
    const details = outcome.details;
    const url = remoteOf(details);
    if (url === null) continue;
    const before = earlier(asked) ?? earlier(outcome.facts.full_name);
    if (before?.remote?.url === url && Date.parse(before.remote.checked_at) >= fresh) {
      const kept = recorded(details, before.remote, before.tools ?? []);
      if (kept) outcome.details = kept;
      counts.reused++;
      continue;
    }
    const list = todo.get(url) ?? todo.set(url, []).get(url)!;
    list.push([asked, outcome as Fetched]);
  }
  const urls = [...todo.keys()];
  let next = 0;
  const worker = async () => {
    while (next < urls.length) {
      const url = urls[next++]!;
      const left = deadline - Date.now();
      const waiting = todo.get(url)!;
      if (left <= 0) {
        counts.late += waiting.length;
        for (const [asked, outcome] of waiting) keepEarlier(outcome, earlier(asked));
        continue;
      }
      counts.asked++;
      const timeoutMs = Math.min(limits.timeoutMs, left);
      const result: ProbeResult = await probeRemote(url, {
        timeoutMs,
        maxBytes: MAX_BODY_BYTES,
        allowance: options.allowance,
      });
      counts[result.status] += waiting.length;
      const remote: RemoteAnswer = { status: result.status, checked_at: now().toISOString(), url };
      if (result.reason) remote.reason = result.reason.slice(0, 100);
      for (const [, outcome] of waiting) {
        const updated = recorded(outcome.details, remote, result.tools);
        if (updated) outcome.details = updated;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, limits.concurrency) }, worker));
  return counts;
}

/** A remote not asked in time keeps what the previous snapshot said of it, at the same address. */
function keepEarlier(outcome: Fetched, before: ReturnType<Earlier>): void {
  const url = remoteOf(outcome.details);
  if (!before?.remote || before.remote.url !== url) return;
  const kept = recorded(outcome.details, before.remote, before.tools ?? []);
  if (kept) outcome.details = kept;
}

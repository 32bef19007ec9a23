/**
 * The official MCP registry (`GET /v0.1/servers`, the 2025-12-01 API) as a discovery source:
 * optional (MCP_REGISTRY_URL, `off` for none) and hostile like every upstream. Each page is one
 * request under the source's own budget (pages, per-request timeout, deadline) and size cap, and
 * passes a schema before any entry is read; an entry failing its own schema is left out. A server
 * whose `repository.url` names a GitHub repository is a candidate, a lead only: it is listed on
 * evidence in its own repository (discover.ts), since the registry proves who published an entry,
 * not what the repository is. Paged by the opaque `cursor`; a run
 * after a complete one asks only for what changed since the newest `updatedAt` it saw.
 */
import { Type } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import type { RequestLimits } from "../../settings";
import { packageKey } from "../checks/packages/package-keys";
import type { UpstreamGate } from "../upstream/gate";
import { githubRepo, mcpNameOwner } from "../upstream/repo-links";
import { UpstreamBudget, UpstreamClient } from "../upstream/upstream-client";

/** Where the registry is and what one run may spend on it (MCP_REGISTRY_URL, MCP_REGISTRY_MAX_PAGES). */
export interface McpRegistryOptions {
  url: string;
  limits: RequestLimits;
}

/** The most the API hands out per page. */
const PAGE_SIZE = 100;
const OFFICIAL = "io.modelcontextprotocol.registry/official";
const PACKAGE_NAME = /^(?:@[a-z0-9][a-z0-9._-]{0,100}\/)?[A-Za-z0-9][A-Za-z0-9._-]{0,200}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/;

const Page = Type.Object({
  servers: Type.Array(Type.Unknown(), { maxItems: PAGE_SIZE }),
  metadata: Type.Optional(
    Type.Object({
      nextCursor: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Null()])),
      count: Type.Optional(Type.Integer({ minimum: 0 })),
    }),
  ),
});

/** The fields discovery reads, within the published schema's limits; the rest of an entry is not looked at. */
const Entry = Type.Object({
  server: Type.Object({
    name: Type.String({ minLength: 3, maxLength: 200, pattern: "^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$" }),
    repository: Type.Optional(
      Type.Object({
        url: Type.String({ maxLength: 500 }),
        source: Type.Optional(Type.String({ maxLength: 100 })),
      }),
    ),
    // Read apart (packagesOf): a package this source cannot read leaves the entry a candidate still.
    packages: Type.Optional(Type.Unknown()),
  }),
  _meta: Type.Optional(
    Type.Object({
      [OFFICIAL]: Type.Optional(
        Type.Object({
          status: Type.Optional(Type.String({ maxLength: 20 })),
          updatedAt: Type.Optional(Type.String({ maxLength: 40 })),
        }),
      ),
    }),
  ),
});
const check = { page: TypeCompiler.Compile(Page), entry: TypeCompiler.Compile(Entry) };

export interface McpRegistryServer {
  /** The GitHub repository its `repository.url` names, through the gate. */
  id: string;
  name: string;
  /** Its npm and PyPI packages, `npm:<name>` or `pypi:<normalised name>` (package-keys.ts). */
  packages: string[];
}

/** The npm and PyPI packages an entry lists, as package keys; the rest is not read. */
function packagesOf(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  const keys: string[] = [];
  for (const pkg of value.slice(0, 20)) {
    const { registryType: kind, identifier } = (pkg ?? {}) as { registryType?: unknown; identifier?: unknown };
    if ((kind === "npm" || kind === "pypi") && typeof identifier === "string" && PACKAGE_NAME.test(identifier))
      keys.push(packageKey(kind, identifier));
  }
  return keys;
}

export interface McpRegistryRead {
  servers: McpRegistryServer[];
  /** The newest `updatedAt` among the entries read: where the next run's `updated_since` starts. */
  highWater: string | null;
  pages: number;
  /** `complete`: the last page was read; `cut`: the page budget ended it; `failed`: an answer was not one. */
  end: "complete" | "cut" | "failed";
  reason?: string;
}

function pagePath(since: string | null, cursor: string | null): string {
  const query = new URLSearchParams({ limit: String(PAGE_SIZE), version: "latest" });
  if (since !== null) query.set("updated_since", since);
  if (cursor !== null) query.set("cursor", cursor);
  return `/v0.1/servers?${query}`;
}

/** One entry as a candidate, or null: deleted, not on GitHub, or not within the schema (counted by the gate). */
function serverOf(
  raw: unknown,
  gate: UpstreamGate,
  rule: string,
): { server: McpRegistryServer | null; at: string | null } {
  if (!check.entry.Check(raw)) {
    const name = (raw as { server?: { name?: unknown } } | null)?.server?.name;
    gate.counts.leaveOut(`${rule}: not a registry entry`, String(name ?? "?").slice(0, 200));
    return { server: null, at: null };
  }
  const official = raw._meta?.[OFFICIAL];
  const at = official?.updatedAt && ISO.test(official.updatedAt) ? new Date(official.updatedAt).toISOString() : null;
  const repository = raw.server.repository;
  if (official?.status === "deleted" || !repository || (repository.source ?? "github") !== "github")
    return { server: null, at };
  const repo = githubRepo(repository.url);
  const id = repo === null ? null : gate.id(repo, rule);
  if (id === null) return { server: null, at };
  return { server: { id, name: raw.server.name, packages: packagesOf(raw.server.packages) }, at };
}

/** Reads every page (only what changed since `since`, when given) within the budget. */
export async function readMcpRegistry(
  options: McpRegistryOptions,
  since: string | null,
  gate: UpstreamGate,
  rule: string,
): Promise<McpRegistryRead> {
  const budget = new UpstreamBudget(options.limits);
  const client = new UpstreamClient(options.url, budget);
  const read: McpRegistryRead = { servers: [], highWater: null, pages: 0, end: "complete" };
  const cursors = new Set<string>();
  let cursor: string | null = null;
  try {
    for (;;) {
      const answer = await client.get(pagePath(since, cursor));
      if (answer.kind !== "json" || !check.page.Check(answer.body)) {
        const reason =
          answer.kind === "unknown" ? answer.reason : answer.kind === "missing" ? "status 404" : "malformed answer";
        return { ...read, end: reason === "budget spent" ? "cut" : "failed", reason };
      }
      read.pages++;
      for (const raw of answer.body.servers) {
        const { server, at } = serverOf(raw, gate, rule);
        if (server) read.servers.push(server);
        if (at !== null && (read.highWater === null || at > read.highWater)) read.highWater = at;
      }
      const next = answer.body.metadata?.nextCursor;
      if (!next) return read;
      // A cursor met twice would page forever.
      if (cursors.has(next)) return { ...read, end: "failed", reason: "cursor repeats" };
      cursors.add(next);
      cursor = next;
    }
  } finally {
    budget.end();
  }
}

/** Registry names kept per repository (a monorepo may publish a few servers). */
const MAX_REGISTRY_NAMES = 20;

/**
 * Notes on each found repository the names the registry lists with its URL: namespaces the
 * registry verified for their publisher (a domain by DNS or HTTP, an `io.github.` account by its
 * login), which keep the name in /v0.1/servers (check-phases.ts `registryListedPhase`).
 */
export function keepRegistryNames(
  found: Map<string, { id: string; registryNames?: string[]; registryPackages?: string[] }>,
  servers: readonly McpRegistryServer[],
): void {
  for (const server of servers) {
    const entry = found.get(server.id.toLowerCase());
    if (entry === undefined) continue;
    const names = entry.registryNames ?? [];
    if (names.length < MAX_REGISTRY_NAMES && !names.includes(server.name))
      entry.registryNames = [...names, server.name];
    // Only the account itself publishes in `io.github.<account>`, and the registry checks that each package
    // names the server back: a record in the repository owner's namespace proves its packages the owner's.
    const owner = entry.id.slice(0, entry.id.indexOf("/")).toLowerCase();
    if (mcpNameOwner(server.name)?.toLowerCase() !== owner) continue;
    const packages = new Set([...(entry.registryPackages ?? []), ...server.packages]);
    entry.registryPackages = [...packages].slice(0, MAX_REGISTRY_NAMES);
  }
}

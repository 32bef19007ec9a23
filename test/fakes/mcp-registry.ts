/**
 * The official MCP registry's read API (`GET /v0.1/servers`, version 2025-12-01) as a real HTTP
 * server on 127.0.0.1: `ServerList` bodies (`servers[]` of `{server, _meta}` with the official
 * metadata, `metadata.nextCursor` and `count`), paged by an opaque cursor, `limit` from 1 to 100
 * (30 by default), `updated_since` (RFC 3339; deleted versions included, as the registry does),
 * `version=latest` and `search`; bad parameters answer the registry's problem JSON. A mode makes it hostile.
 */
import { LoopbackServer } from "./loopback";

export interface FakeServer {
  /** `io.github.<owner>/<name>` or a reverse-DNS name. */
  name: string;
  version?: string;
  description?: string;
  /** `repository.url`; none when absent. */
  repository?: string;
  source?: string;
  status?: "active" | "deprecated" | "deleted";
  updatedAt: string;
  /** Older versions of the same server, listed unless `version=latest`. */
  older?: string[];
  /** Its packages (`registryType`, `identifier`); one npm package `@x/<name>` when absent. */
  packages?: Array<{ registryType: string; identifier: string }>;
}

export type RegistryMode = "ok" | "down" | "hang" | "malformed" | "huge" | "loop" | "wrong-shape";

const SCHEMA = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json";

function problem(status: number, title: string, detail: string): Response {
  return Response.json({ title, status, detail }, { status, headers: { "content-type": "application/problem+json" } });
}

export class FakeMcpRegistry extends LoopbackServer {
  readonly servers: FakeServer[] = [];
  mode: RegistryMode = "ok";
  /** Query strings asked of /v0.1/servers, in order. */
  readonly asked: URLSearchParams[] = [];

  add(...servers: FakeServer[]): void {
    this.servers.push(...servers);
  }

  protected answer(request: Request): Response | Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname !== "/v0.1/servers") return problem(404, "Not Found", "Server not found");
    this.asked.push(url.searchParams);
    if (this.mode === "hang") return new Promise<Response>(() => {});
    if (this.mode === "down") return problem(500, "Internal Server Error", "Failed to get registry list");
    if (this.mode === "malformed")
      return new Response('{"servers": [', { headers: { "content-type": "application/json" } });
    if (this.mode === "wrong-shape") return Response.json({ servers: "all of them", metadata: {} });
    if (this.mode === "huge") return Response.json({ servers: [], padding: "x".repeat(3 * 1024 * 1024) });
    return this.list(url.searchParams);
  }

  private list(params: URLSearchParams): Response {
    const limit = Number(params.get("limit") ?? "30");
    if (!Number.isInteger(limit) || limit < 1 || limit > 100)
      return problem(422, "Unprocessable Entity", "validation failed: limit must be between 1 and 100");
    const since = params.get("updated_since");
    if (since !== null && Number.isNaN(Date.parse(since)))
      return problem(
        400,
        "Bad Request",
        "Invalid updated_since format: expected RFC3339 timestamp (e.g., 2025-08-07T13:15:04.280Z)",
      );
    const latest = params.get("version") === "latest";
    const search = params.get("search")?.toLowerCase();
    let entries = this.entries(latest).filter(
      (e) =>
        (since === null ? e.status !== "deleted" : Date.parse(e.updatedAt) > Date.parse(since)) &&
        (!search || e.name.toLowerCase().includes(search)),
    );
    const cursor = params.get("cursor");
    if (cursor !== null) {
      const after = Buffer.from(cursor, "base64url").toString("utf8");
      if (!after.includes("@")) return problem(400, "Bad Request", "Invalid cursor parameter");
      entries = entries.filter((e) => `${e.name}@${e.version}` > after);
    }
    const page = entries.slice(0, limit);
    const last = page.at(-1);
    const more = entries.length > limit && last !== undefined;
    const next =
      this.mode === "loop"
        ? "c3RpbGwgaGVyZUAx"
        : more
          ? Buffer.from(`${last.name}@${last.version}`).toString("base64url")
          : undefined;
    return Response.json({
      servers: page.map((e) => e.body),
      metadata: { count: page.length, ...(next ? { nextCursor: next } : {}) },
    });
  }

  /** Every version as the API lists it, ordered by name then version (the cursor's order). */
  private entries(latest: boolean) {
    const out: Array<{ name: string; version: string; status: string; updatedAt: string; body: unknown }> = [];
    for (const s of this.servers) {
      const versions = latest ? [s.version ?? "1.0.0"] : [...(s.older ?? []), s.version ?? "1.0.0"];
      for (const version of versions) {
        const isLatest = version === (s.version ?? "1.0.0");
        const status = s.status ?? "active";
        const server = {
          $schema: SCHEMA,
          name: s.name,
          description: s.description ?? "An MCP server",
          version,
          ...(s.repository ? { repository: { url: s.repository, source: s.source ?? "github" } } : {}),
          packages: (s.packages ?? [{ registryType: "npm", identifier: `@x/${s.name.split("/")[1]}` }]).map((p) => ({
            ...p,
            version,
            transport: { type: "stdio" },
          })),
        };
        const official = { status, publishedAt: s.updatedAt, updatedAt: s.updatedAt, isLatest };
        out.push({
          name: s.name,
          version,
          status,
          updatedAt: s.updatedAt,
          body: { server, _meta: { "io.modelcontextprotocol.registry/official": official } },
        });
      }
    }
    return out.sort((a, b) => (`${a.name}@${a.version}` < `${b.name}@${b.version}` ? -1 : 1));
  }
}

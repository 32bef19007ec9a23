/**
 * Remote MCP servers as the refresh meets them, one fake HTTP server on 127.0.0.1 telling them
 * apart by the Host header the guard sends: one that answers (a hand-made JSON-RPC responder), one
 * asking for credentials, one serving HTML, one that hangs, one redirecting to 127.0.0.1, one with a
 * server card listing its tools. A second server stands for a private address: it counts every
 * request it gets, so a test can prove none arrived. `allowance` reaches them through the guard.
 */
import type { TestAllowance } from "../../src/refresh/checks/remotes/remote-guard";

export const HOSTS = {
  answering: "mcp.answering-fixture.net",
  auth: "mcp.auth-fixture.net",
  html: "mcp.html-fixture.net",
  hang: "mcp.hang-fixture.net",
  redirect: "mcp.redirect-fixture.net",
  card: "mcp.card-fixture.net",
  /** Its card address redirects to 127.0.0.1; its MCP endpoint answers. */
  cardTrap: "mcp.card-trap-fixture.net",
  /** Answers JSON that is not JSON-RPC. */
  json: "mcp.json-fixture.net",
  /** Redirects (307) to the answering server by its name: followed, checked again. */
  hop: "mcp.hop-fixture.net",
  /** Redirects to itself, for ever. */
  loop: "mcp.loop-fixture.net",
  /** Answers `initialize`, then fails `tools/list` with a JSON-RPC error. */
  listFails: "mcp.list-fails-fixture.net",
  /** Answers `initialize`, then wants credentials for `tools/list`. */
  listAuth: "mcp.list-auth-fixture.net",
  /** Resolves to a loopback address and a private one: the guard must refuse it whole. */
  private: "mcp.private-fixture.net",
  /** Resolves to nothing. */
  missing: "mcp.missing-fixture.net",
  /** Speaks MCP 2026-07-28 only: `server/discover` and `tools/list` with `_meta`; `initialize` is no method of it. */
  modern: "mcp.modern-fixture.net",
  /** The same, answering in server-sent events. */
  modernEvents: "mcp.modern-events-fixture.net",
  /** Wants credentials for `server/discover`. */
  modernAuth: "mcp.modern-auth-fixture.net",
} as const;

export const remoteUrl = (host: string) => `https://${host}/mcp`;

/** Tools the answering server lists: one name refused, one description with invisible characters. */
export const LISTED_TOOLS = [
  { name: "search_docs", description: "Search the\u200B documentation\nby keyword", inputSchema: { type: "object" } },
  { name: "bad name!", description: "refused", inputSchema: { type: "object" } },
  ...Array.from({ length: 120 }, (_, i) => ({ name: `tool_${i}`, inputSchema: { type: "object" } })),
];

const MODERN = "2026-07-28";

/** A 2026-07-28 server: every request must carry the version in its header and its `_meta`, or it is a 400. */
function answerModern(message: ModernMessage, request: Request, events: boolean): Response {
  const meta = message.params?._meta ?? {};
  const stated =
    request.headers.get("mcp-protocol-version") === MODERN && request.headers.get("mcp-method") === message.method;
  if (!stated || meta["io.modelcontextprotocol/protocolVersion"] !== MODERN)
    return Response.json(
      { jsonrpc: "2.0", id: message.id ?? null, error: { code: -32001, message: "header mismatch" } },
      { status: 400 },
    );
  const reply = (result: unknown) => {
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: message.id,
      result: { resultType: "complete", ...(result as object) },
    });
    if (!events) return new Response(body, { headers: { "content-type": "application/json" } });
    return new Response(`event: message\ndata: ${body}\n\n`, { headers: { "content-type": "text/event-stream" } });
  };
  if (message.method === "server/discover")
    return reply({
      supportedVersions: [MODERN],
      capabilities: { tools: {} },
      serverInfo: { name: "modern", version: "1" },
    });
  if (message.method === "tools/list") {
    const start = Number(message.params?.cursor ?? 0);
    const page = LISTED_TOOLS.slice(start, start + 50);
    return reply({ tools: page, ...(start + 50 < LISTED_TOOLS.length ? { nextCursor: String(start + 50) } : {}) });
  }
  return Response.json(
    { jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "no such method" } },
    { status: 404 },
  );
}

interface ModernMessage {
  id?: unknown;
  method: string;
  params?: { cursor?: string; _meta?: Record<string, unknown> };
}

function rpc(id: unknown, result: unknown): Response {
  return Response.json({ jsonrpc: "2.0", id, result });
}

async function answer(request: Request, host = "", methods?: Map<string, string[]>): Promise<Response> {
  if (request.method !== "POST") return new Response(null, { status: 405 });
  const message = (await request.json()) as ModernMessage;
  methods?.set(host, [...(methods.get(host) ?? []), message.method]);
  if (host === HOSTS.modernAuth) return new Response("{}", { status: 401, headers: { "www-authenticate": "Bearer" } });
  if (host === HOSTS.modern || host === HOSTS.modernEvents)
    return answerModern(message, request, host === HOSTS.modernEvents);
  if (message.method === "initialize")
    return rpc(message.id, {
      protocolVersion: "2025-06-18",
      capabilities: { tools: {} },
      serverInfo: { name: "fixture", version: "1.0.0" },
    });
  if (message.id === undefined) return new Response(null, { status: 202 });
  if (message.method === "tools/list" && host === HOSTS.listAuth)
    return new Response("{}", { status: 401, headers: { "www-authenticate": "Bearer" } });
  if (message.method === "tools/list" && host !== HOSTS.listFails) {
    const start = Number(message.params?.cursor ?? 0);
    const page = LISTED_TOOLS.slice(start, start + 50);
    const next = start + 50 < LISTED_TOOLS.length ? String(start + 50) : undefined;
    return rpc(message.id, { tools: page, ...(next ? { nextCursor: next } : {}) });
  }
  return Response.json({ jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "no such method" } });
}

export interface FakeRemotes {
  allowance: TestAllowance;
  /** Requests the "private" server received: must stay 0. */
  privateHits: () => number;
  /** Requests by Host header on the main server. */
  hits: Map<string, number>;
  /** The JSON-RPC methods each host was asked, in order. */
  methods: Map<string, string[]>;
  stop: () => void;
}

export function startFakeRemotes(): FakeRemotes {
  let privateCount = 0;
  const hits = new Map<string, number>();
  const methods = new Map<string, string[]>();
  const hanging: Array<() => void> = [];
  const privateServer = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (request) => {
      privateCount++;
      return answer(request);
    },
  });
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    fetch: (request) => {
      const host = (request.headers.get("host") ?? "").split(":")[0]!;
      hits.set(host, (hits.get(host) ?? 0) + 1);
      const path = new URL(request.url).pathname;
      if (host === HOSTS.card && path === "/.well-known/mcp/server-card")
        return Response.json({
          name: "net.card-fixture/mcp",
          tools: [{ name: "from_card", description: "Listed in the card" }],
        });
      if (host === HOSTS.cardTrap && path.startsWith("/.well-known/"))
        return new Response(null, {
          status: 302,
          headers: { location: `https://127.0.0.1:${privateServer.port}/card` },
        });
      if (path.startsWith("/.well-known/")) return new Response("not found", { status: 404 });
      if (host === HOSTS.auth)
        return new Response("{}", { status: 401, headers: { "www-authenticate": 'Bearer resource_metadata="x"' } });
      if (host === HOSTS.html)
        return new Response("<!doctype html><p>Welcome</p>", { headers: { "content-type": "text/html" } });
      if (host === HOSTS.hang)
        return new Promise<Response>((resolve) => hanging.push(() => resolve(new Response("late"))));
      if (host === HOSTS.json) return Response.json({ status: "ok" });
      if (host === HOSTS.hop)
        return new Response(null, { status: 307, headers: { location: remoteUrl(HOSTS.answering) } });
      if (host === HOSTS.loop)
        return new Response(null, { status: 302, headers: { location: `/mcp?${Math.random()}` } });
      if (host === HOSTS.redirect)
        return new Response(null, { status: 307, headers: { location: `http://127.0.0.1:${privateServer.port}/mcp` } });
      return answer(request, host, methods);
    },
  });
  const resolve = async (host: string): Promise<string[]> => {
    if (host === HOSTS.missing) return [];
    if (host === HOSTS.private) return ["127.0.0.1", "10.20.30.40"];
    return ["127.0.0.1"];
  };
  const port = (host: string) => (host === HOSTS.private ? privateServer.port! : server.port!);
  return {
    allowance: { resolve, port },
    privateHits: () => privateCount,
    hits,
    methods,
    stop: () => {
      for (const release of hanging) release();
      server.stop(true);
      privateServer.stop(true);
    },
  };
}

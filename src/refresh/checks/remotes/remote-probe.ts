/**
 * Asks one remote MCP server what it is, unauthenticated: its server card first (server-card.ts), else
 * the stateless `server/discover` and `tools/list` of MCP 2026-07-28 (remote-discover.ts), else, for a
 * server of an earlier revision, one `initialize` and `tools/list` through the official MCP
 * TypeScript SDK's client over Streamable HTTP, every request through the guard (remote-guard.ts). Never longer than `timeoutMs`: a
 * server that hangs is `down`. Every outcome is a status, never an exception.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { MAX_TOOLS, type RemoteStatus } from "../../../catalog/model/remote";
import { discoverServer } from "./remote-discover";
import { Blocked, guardedFetch, type TestAllowance, TooLarge } from "./remote-guard";
import { cleanTools, type RemoteTool } from "./remote-tools";
import { fetchCard } from "./server-card";

export interface ProbeOptions {
  timeoutMs: number;
  maxBytes: number;
  allowance?: TestAllowance;
}

export interface ProbeResult {
  status: RemoteStatus;
  reason?: string;
  tools: RemoteTool[];
}

/** Pages of `tools/list` read at most: a server paging one tool at a time stops here. */
const MAX_PAGES = 5;

/** What the probe's requests met, for classifying a failure the client reports only as an error. */
interface Witness {
  responses: number;
  auth: boolean;
  html: boolean;
  serverError: number | null;
  blocked: string | null;
  tooLarge: boolean;
}

function observed(fetcher: ReturnType<typeof guardedFetch>, witness: Witness) {
  return async (input: string | URL, init?: RequestInit): Promise<Response> => {
    try {
      const response = await fetcher(input, init);
      witness.responses++;
      if (response.status === 401 || response.status === 403 || response.headers.has("www-authenticate"))
        witness.auth = true;
      if (/html/i.test(response.headers.get("content-type") ?? "")) witness.html = true;
      if (response.status >= 500) witness.serverError = response.status;
      return response;
    } catch (error) {
      if (error instanceof Blocked) witness.blocked = error.message;
      if (error instanceof TooLarge) witness.tooLarge = true;
      throw error;
    }
  };
}

async function handshake(url: string, fetcher: ReturnType<typeof observed>, witness: Witness): Promise<RemoteTool[]> {
  const client = new Client({ name: "plugin-catalog", version: "1" }, { capabilities: {} });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    fetch: fetcher,
    redirectPolicy: "follow",
    reconnectionOptions: {
      maxRetries: 0,
      initialReconnectionDelay: 1,
      maxReconnectionDelay: 1,
      reconnectionDelayGrowFactor: 1,
    },
  });
  try {
    await client.connect(transport);
    if (!client.getServerCapabilities()?.tools) return [];
    const listed: unknown[] = [];
    let cursor: string | undefined;
    try {
      for (let page = 0; page < MAX_PAGES && cleanTools(listed).length < MAX_TOOLS; page++) {
        const answer = await client.listTools(cursor ? { cursor } : undefined);
        listed.push(...answer.tools);
        cursor = answer.nextCursor;
        if (!cursor) break;
      }
    } catch (error) {
      // It answered `initialize`: a failing list leaves it answering with what it listed, unless it asked for credentials.
      if (witness.auth || witness.blocked) throw error;
    }
    return cleanTools(listed);
  } finally {
    await client.close().catch(() => {});
  }
}

function classify(witness: Witness, timedOut: boolean, error: unknown): ProbeResult {
  const none: RemoteTool[] = [];
  if (witness.blocked) return { status: "down", reason: witness.blocked, tools: none };
  if (witness.auth) return { status: "auth_required", tools: none };
  if (timedOut) return { status: "down", reason: "no answer in time", tools: none };
  if (witness.tooLarge) return { status: "not_mcp", reason: "answer too large", tools: none };
  if (witness.html) return { status: "not_mcp", reason: "serves HTML", tools: none };
  if (witness.serverError !== null) return { status: "down", reason: `status ${witness.serverError}`, tools: none };
  if (witness.responses > 0) return { status: "not_mcp", reason: "no MCP answer", tools: none };
  const code = (error as { code?: unknown } | null)?.code;
  return { status: "down", reason: typeof code === "string" ? code.slice(0, 60) : "no answer", tools: none };
}

/** What nothing has been seen yet. */
const freshWitness = (): Witness => ({
  responses: 0,
  auth: false,
  html: false,
  serverError: null,
  blocked: null,
  tooLarge: false,
});

/** The server's status and tools; within `timeoutMs` whatever it does. */
export async function probeRemote(url: string, options: ProbeOptions): Promise<ProbeResult> {
  const stop = new AbortController();
  const witness = freshWitness();
  const fetcher = observed(
    guardedFetch({ maxBytes: options.maxBytes, signal: stop.signal, allowance: options.allowance }),
    witness,
  );
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), options.timeoutMs);
  });
  const work = (async (): Promise<ProbeResult> => {
    const card = await fetchCard(url, fetcher).catch(() => null);
    if (card?.tools) return { status: "answering", tools: card.tools };
    if (card?.authRequired)
      return { status: "auth_required", reason: "server card names a required header", tools: [] };
    // What the card request met (a refused redirect too) is not the server's answer: only the handshake's counts.
    Object.assign(witness, freshWitness());
    const modern = await discoverServer(url, fetcher, () => witness.auth, MAX_TOOLS).catch((error: unknown) => {
      if (witness.auth || witness.blocked) throw error;
      return { kind: "earlier" } as const;
    });
    if (modern.kind === "modern") return { status: "answering", tools: modern.tools };
    // An earlier revision: what `server/discover` met is not its answer to `initialize`.
    Object.assign(witness, freshWitness());
    return { status: "answering", tools: await handshake(url, fetcher, witness) };
  })();
  try {
    const result = await Promise.race([work.catch((error: unknown) => classify(witness, false, error)), late]);
    if (result === "late") {
      stop.abort();
      return classify(witness, true, null);
    }
    return result;
  } finally {
    clearTimeout(timer);
    stop.abort();
  }
}

/**
 * The stateless handshake of MCP 2026-07-28 over Streamable HTTP: no `initialize`, every request
 * carrying its protocol version and client capabilities in `_meta` (and the MCP-Protocol-Version
 * and Mcp-Method headers), `server/discover` first, then `tools/list`. A server that does not
 * answer `server/discover` with a result naming 2026-07-28 is taken as one of the earlier
 * revisions, and the probe falls back to `initialize` (remote-probe.ts). Every request goes through
 * the fetcher it is given, the guard's, so the guard and the probe's budget hold as they do there.
 */
import { cleanTools, type RemoteTool } from "./remote-tools";

export const MODERN_VERSION = "2026-07-28";

const CLIENT_INFO = { name: "plugin-catalog", version: "1" };

type Fetcher = (input: string | URL, init?: RequestInit) => Promise<Response>;

/** What `server/discover` told: a server of this revision and the tools it lists, or one of an earlier revision. */
export type Discovered = { kind: "modern"; tools: RemoteTool[] } | { kind: "earlier" };

/** The JSON-RPC answer to one request: its result, or why there is none. */
type Answer = { result: Record<string, unknown> } | { status: number; error: unknown };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The JSON-RPC message answering `id` in a JSON body or in the `data:` lines of a server-sent event stream. */
function messageOf(text: string, type: string, id: number): Record<string, unknown> | null {
  const parse = (json: string): unknown => {
    try {
      return JSON.parse(json);
    } catch {
      return null;
    }
  };
  if (!/event-stream/i.test(type)) {
    const message = parse(text);
    return isObject(message) && message.id === id ? message : null;
  }
  for (const event of text.split(/\r?\n\r?\n/)) {
    const data = event
      .split(/\r?\n/)
      .filter((line) => line.startsWith("data:"))
      .map((line) => line.slice(5).trimStart())
      .join("\n");
    const message = data ? parse(data) : null;
    if (isObject(message) && message.id === id) return message;
  }
  return null;
}

async function call(url: string, fetcher: Fetcher, id: number, method: string, params: object): Promise<Answer> {
  const body = {
    jsonrpc: "2.0",
    id,
    method,
    params: {
      ...params,
      _meta: {
        "io.modelcontextprotocol/protocolVersion": MODERN_VERSION,
        "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
        "io.modelcontextprotocol/clientCapabilities": {},
      },
    },
  };
  const response = await fetcher(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": MODERN_VERSION,
      "mcp-method": method,
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  const message = response.ok ? messageOf(text, response.headers.get("content-type") ?? "", id) : null;
  if (message && isObject(message.result)) return { result: message.result };
  return { status: response.status, error: message?.error ?? null };
}

/** Pages of `tools/list` read at most, as in the earlier handshake. */
const MAX_PAGES = 5;

/**
 * `server/discover` and, when the server has tools, `tools/list` in the 2026-07-28 form. A refusal
 * of credentials is thrown for the probe to classify; any other failure of `server/discover` means
 * an earlier revision. A `tools/list` that fails after a good `server/discover` leaves what was listed.
 */
export async function discoverServer(
  url: string,
  fetcher: Fetcher,
  wantsCredentials: () => boolean,
  maxTools: number,
): Promise<Discovered> {
  const discovered = await call(url, fetcher, 1, "server/discover", {});
  if (!("result" in discovered)) {
    if (wantsCredentials()) throw new Error("server/discover wants credentials");
    return { kind: "earlier" };
  }
  const { supportedVersions, capabilities } = discovered.result;
  if (!Array.isArray(supportedVersions) || !supportedVersions.includes(MODERN_VERSION)) return { kind: "earlier" };
  if (!isObject(capabilities) || !isObject(capabilities.tools)) return { kind: "modern", tools: [] };
  const listed: unknown[] = [];
  let cursor: unknown;
  for (let page = 0; page < MAX_PAGES && cleanTools(listed).length < maxTools; page++) {
    const answer = await call(url, fetcher, 2 + page, "tools/list", typeof cursor === "string" ? { cursor } : {});
    if (!("result" in answer)) {
      if (wantsCredentials()) throw new Error("tools/list wants credentials");
      break;
    }
    if (Array.isArray(answer.result.tools)) listed.push(...answer.result.tools);
    cursor = answer.result.nextCursor;
    if (typeof cursor !== "string" || cursor === "") break;
  }
  return { kind: "modern", tools: cleanTools(listed) };
}

/**
 * An MCP Server Card (SEP-2127, the Server Card extension of the MCP specification): a static JSON
 * document a remote server publishes at `/.well-known/mcp/server-card` on its host, read before
 * connecting. The card describes how to connect (`remotes`, each with the headers it needs); the
 * extension keeps tools behind `tools/list`, but cards written to earlier drafts (SEP-1649) listed
 * them, so a card's `tools` are taken when present. A card is hostile input like any answer:
 * strict shape checks, its tools cleaned like any text (remote-tools.ts).
 */
import { cleanTools, type RemoteTool } from "./remote-tools";

export const CARD_PATH = "/.well-known/mcp/server-card";

export interface CardRead {
  /** The card's own tools, when it lists them (earlier drafts). */
  tools: RemoteTool[] | null;
  /** The card says the remote asked about needs a header the user supplies (a key, a token). */
  authRequired: boolean;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Whether the card's entry for `url` (or its only entry) requires a header. */
function needsHeader(remotes: unknown, url: string): boolean {
  if (!Array.isArray(remotes)) return false;
  const entries = remotes.filter(isObject);
  const own = entries.filter((r) => r.url === url);
  const asked = own.length > 0 ? own : entries.length === 1 ? entries : [];
  return asked.some(
    (r) =>
      Array.isArray(r.headers) &&
      r.headers.some((h) => isObject(h) && (h.isRequired === true || h.is_required === true)),
  );
}

/** What a card body says, or null when it is not a card (not JSON, no name, not an object). */
export function readCard(text: string, url: string): CardRead | null {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObject(body) || typeof body.name !== "string") return null;
  return {
    tools: Array.isArray(body.tools) ? cleanTools(body.tools) : null,
    authRequired: needsHeader(body.remotes, url),
  };
}

/** The card of the host `url` is on, through the guarded fetch; null for none or anything else. */
export async function fetchCard(
  url: string,
  fetcher: (input: string | URL, init?: RequestInit) => Promise<Response>,
): Promise<CardRead | null> {
  const response = await fetcher(new URL(CARD_PATH, url), { headers: { accept: "application/json" } });
  const type = response.headers.get("content-type") ?? "";
  if (response.status !== 200 || !/json/i.test(type)) {
    await response.body?.cancel();
    return null;
  }
  return readCard(await response.text(), url);
}

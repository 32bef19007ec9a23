/**
 * The one way a refresh reaches a remote MCP server someone else's manifest names. Only https;
 * the name is resolved first and every address it has must be public (public-hosts.ts), and the
 * request goes to the checked address itself, so a second lookup cannot answer otherwise (DNS
 * rebinding). Redirects are followed here, by hand, at most MAX_REDIRECTS times, each target
 * checked like the first. Nothing that identifies anyone is ever sent: headers are built from an
 * allowlist (no cookie, no Authorization), and answers are cut at a size cap.
 *
 * Tests reach their fake servers on the loopback range through a TestAllowance passed in code: it
 * brings its own resolver, and a loopback address that resolver names is reached over plain http
 * at the port the test gives; every other rule holds as in production (https addresses, literal
 * addresses never allowed, private ranges refused). No configuration or environment variable can
 * supply one, so production never reaches loopback.
 */
import { lookup } from "node:dns/promises";
import ipaddr from "ipaddr.js";
import { publicAddress, publicHostName } from "../../../catalog/model/public-hosts";

export type Resolve = (host: string) => Promise<string[]>;

/** What a test passes to reach fakes on this machine; never built from configuration. */
export interface TestAllowance {
  resolve: Resolve;
  /** The port a test's fake listens on (plain http) for a name its resolver sends to loopback. */
  port: (host: string) => number;
}

export interface GuardOptions {
  /** Answers longer than this are cut off with an error. */
  maxBytes: number;
  /** Aborts every request made through the guard (the probe's own time limit). */
  signal?: AbortSignal;
  allowance?: TestAllowance;
}

export const MAX_REDIRECTS = 3;

/** A request the guard refused to send: the reason says why. */
export class Blocked extends Error {}
/** An answer longer than the cap. */
export class TooLarge extends Error {}

/**
 * The request headers the MCP client may set, those of both revisions (2026-07-28 adds Mcp-Method
 * and Mcp-Name); any other (cookie, authorization…) is dropped.
 */
const ALLOWED_HEADERS = [
  "accept",
  "content-type",
  "mcp-protocol-version",
  "mcp-method",
  "mcp-name",
  "mcp-session-id",
  "last-event-id",
];
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

async function systemResolve(host: string): Promise<string[]> {
  const found = await lookup(host, { all: true, verbatim: true });
  return found.map((a) => a.address);
}

function loopback(address: string): boolean {
  return ipaddr.isValid(address) && ipaddr.parse(address).range() === "loopback";
}

/** The address to connect to for `url`, every address of its name checked; throws Blocked. */
async function checkedAddress(url: URL, allowance: TestAllowance | undefined): Promise<string> {
  if (url.protocol !== "https:") throw new Blocked("not https");
  if (url.username !== "" || url.password !== "") throw new Blocked("credentials in the address");
  const host = url.hostname.toLowerCase();
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  if (ipaddr.isValid(bare)) {
    // A literal address is never the allowance's: a redirect to 127.0.0.1 stays refused in tests too.
    if (!publicAddress(bare)) throw new Blocked("address not public");
    return bare;
  }
  if (!publicHostName(bare)) throw new Blocked("name not public");
  let addresses: string[];
  try {
    addresses = await (allowance?.resolve ?? systemResolve)(bare);
  } catch {
    throw new Blocked("name does not resolve");
  }
  if (addresses.length === 0) throw new Blocked("name does not resolve");
  for (const address of addresses) {
    const allowed = publicAddress(address) || (allowance !== undefined && loopback(address));
    if (!allowed) throw new Blocked("name resolves to an address not public");
  }
  return addresses[0]!;
}

function safeHeaders(given: HeadersInit | undefined, host: string): Headers {
  const from = new Headers(given);
  const headers = new Headers();
  for (const name of ALLOWED_HEADERS) {
    const value = from.get(name);
    if (value !== null) headers.set(name, value);
  }
  headers.set("host", host);
  headers.set("user-agent", "plugin-catalog-probe");
  return headers;
}

/** The response with its body cut at `maxBytes`: reading past it fails with TooLarge. */
function capped(response: Response, maxBytes: number): Response {
  const declared = Number(response.headers.get("content-length") ?? "0");
  if (declared > maxBytes) {
    void response.body?.cancel();
    throw new TooLarge("answer too large");
  }
  if (!response.body) return response;
  let size = 0;
  const counted = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        size += chunk.byteLength;
        if (size > maxBytes) controller.error(new TooLarge("answer too large"));
        else controller.enqueue(chunk);
      },
    }),
  );
  return new Response(counted, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** One request to the checked address of `url`, never following a redirect itself. */
async function sendOnce(url: URL, init: RequestInit, options: GuardOptions): Promise<Response> {
  const address = await checkedAddress(url, options.allowance);
  const target = new URL(url.href);
  target.hostname = address.includes(":") ? `[${address}]` : address;
  if (options.allowance && loopback(address)) {
    target.protocol = "http:";
    target.port = String(options.allowance.port(url.hostname));
  }
  const signals = [init.signal, options.signal].filter((s): s is AbortSignal => s instanceof AbortSignal);
  return fetch(target, {
    method: init.method ?? "GET",
    headers: safeHeaders(init.headers, url.host),
    body: init.body,
    redirect: "manual",
    credentials: "omit",
    // A pooled connection was opened for another name's TLS session: never share one.
    keepalive: false,
    signal: signals.length ? AbortSignal.any(signals) : undefined,
    // The certificate is checked against the name asked for, not the address connected to.
    tls: { serverName: url.hostname },
  } as RequestInit);
}

/** A fetch for the MCP client and the server card: every request and redirect through the guard. */
export function guardedFetch(options: GuardOptions) {
  return async (input: string | URL, init: RequestInit = {}): Promise<Response> => {
    let url = new URL(input);
    let request = init;
    for (let hop = 0; ; hop++) {
      const response = await sendOnce(url, request, options);
      const location = response.headers.get("location");
      if (!REDIRECTS.has(response.status) || location === null) return capped(response, options.maxBytes);
      await response.body?.cancel();
      if (hop >= MAX_REDIRECTS) throw new Blocked("too many redirects");
      url = new URL(location, url);
      const method = (request.method ?? "GET").toUpperCase();
      if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === "POST"))
        request = { ...request, method: "GET", body: undefined };
    }
  };
}

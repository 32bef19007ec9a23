/**
 * One error shape, one place. Handlers throw these; the app's onError renders them:
 * `{code, message, data: null}` under /api/v1, `{error}` under the MCP registry API's /v0.1,
 * `{code, message}` elsewhere (docs/api.md, *Errors*).
 */
import { JSON_TYPE } from "./cache";
import { secured } from "./headers";

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "HttpError";
  }
}

export function badRequest(param: string, allowed: string): HttpError {
  return new HttpError(400, `Invalid parameter "${param}": ${allowed}.`);
}

export function notFound(what: string): HttpError {
  return new HttpError(404, `${what} not found.`);
}

/** The catalog changed under a client paging a pinned snapshot: it must start again. */
export function snapshotChanged(pinned: string, current: string): HttpError {
  return new HttpError(
    409,
    `The catalog changed: snapshot ${pinned} is no longer served (now ${current}); restart paging from page 1.`,
  );
}

export function unavailable(): HttpError {
  return new HttpError(503, "No catalog snapshot is available yet.");
}

/** Too many renderings are waiting (turns.ts): the client is told when to come back. */
export function busy(): HttpError {
  return new HttpError(503, "The service is busy rendering other answers; retry shortly.", { "Retry-After": "1" });
}

/** Paths of the MCP registry API, whose errors take that API's shape, `{"error": message}`. */
export const isRegistryPath = (path: string) => path.startsWith("/v0.1/");

/** The body of an error response for a request path. */
export function errorBody(path: string, status: number, message: string): string {
  if (isRegistryPath(path)) return JSON.stringify({ error: message });
  return JSON.stringify(path.startsWith("/api/") ? { code: status, message, data: null } : { code: status, message });
}

/** The error response to `request`: its body in the error shape, never cached. */
export function errorResponse(
  request: Request,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return new Response(errorBody(new URL(request.url).pathname, status, message), {
    status,
    headers: secured({ "Content-Type": JSON_TYPE, "Cache-Control": "no-store", ...headers }),
  });
}

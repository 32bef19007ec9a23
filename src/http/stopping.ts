/**
 * The process has begun to stop: /readyz turns 503 and every response asks its keep-alive
 * connection to close after it, so no client sends a request on a connection the stop would cut.
 */
export class Stopping {
  active = false;

  begin(): void {
    this.active = true;
  }
}

/**
 * An afterHandle hook (it runs for requests that arrived before the stop began too): while
 * stopping, the response carries `Connection: close`. It also gives a HEAD answer its `Date`,
 * which the runtime writes on every other answer but not on those.
 */
export function closeWhileStopping(stopping: Stopping) {
  return ({ request, set }: { request: Request; set: { headers: Record<string, string | number> } }): void => {
    if (stopping.active) set.headers.connection = "close";
    if (request.method === "HEAD") set.headers.date = new Date().toUTCString();
  };
}

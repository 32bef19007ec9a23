/**
 * GET /metrics: the Prometheus text exposition of src/metrics.ts, for a scraper. Not rate limited
 * (a scraper has one address and a fixed interval) and never cached; with METRICS_TOKEN set it
 * answers only a request carrying `Authorization: Bearer <token>`.
 */

import type { Metrics } from "../base/metrics";
import { carriesBearer } from "../http/bearer";
import { HttpError } from "../http/errors";
import { secured } from "../http/headers";
import type { RouteDoc } from "../http/openapi";
import { TextSchema } from "../http/wire-schemas";

export const metricsDoc: RouteDoc = {
  tag: "Operations",
  summary: "Metrics in the Prometheus text format",
  description:
    "Requests by route and status, latency histograms, rate-limit refusals, response-cache hits and misses, " +
    "snapshot age and size, scheduled refreshes by outcome, the hosting platform's budget and calls, the shared " +
    "state, heap, RSS and event-loop lag. Not rate limited or cached. When the service has a METRICS_TOKEN, " +
    "only a request with `Authorization: Bearer <token>` is answered.",
  body: TextSchema,
  type: "text/plain",
  cached: false,
  more: {
    401: {
      description: "METRICS_TOKEN is set and the request does not carry it as a bearer token.",
      message: "The metrics need the bearer token the service was given (METRICS_TOKEN).",
      headers: { "WWW-Authenticate": "`Bearer`: the scheme the token goes in." },
    },
  },
};

export function metricsHandler(metrics: Metrics, token: string | undefined) {
  const secret = token ? Buffer.from(token) : null;
  return async ({ request }: { request: Request }): Promise<Response> => {
    if (secret !== null && !carriesBearer(request.headers.get("authorization"), secret)) {
      throw new HttpError(401, metricsDoc.more![401]!.message!, { "WWW-Authenticate": 'Bearer realm="metrics"' });
    }
    const body = await metrics.text();
    return new Response(body, {
      headers: secured({ "Content-Type": metrics.contentType, "Cache-Control": "no-store" }),
    });
  };
}

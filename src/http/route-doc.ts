/** What a route says about itself for the OpenAPI document: its parameters, bodies and statuses. */
import type { TObject, TSchema } from "@sinclair/typebox";
import { snapshotChanged } from "./errors";
import type { BurstRule } from "./rate-limit";

/** A status beyond the common ones: its body schema (the error shape by default), example message, headers. */
export interface MoreStatus {
  description: string;
  body?: TSchema;
  /** A media type other than the error shape's JSON (an HTML page's 404, a redirect's page). */
  type?: string;
  message?: string;
  headers?: Record<string, string>;
  /** A byte range of the 200 body (206): the 200's media types, no schema (a range is not a document). */
  partial?: boolean;
}

/** The 409 of a paged list pinned to a snapshot (`snapshot=`) that is no longer served. */
export const PINNED_CHANGED: MoreStatus = {
  description: "`snapshot` names a snapshot that is no longer served: start again from page 1.",
  message: snapshotChanged("2026-08-22T00:00:00.000Z", "2026-08-22T06:00:00.000Z").message,
};

/** A path that also takes a POST: its request body and the statuses the POST adds; its 200 is the GET's body, never cached. */
export interface PostDoc {
  summary: string;
  description: string;
  /** The JSON request body. */
  request: TSchema;
  more?: Partial<Record<number, MoreStatus>>;
}

/** A function of the snapshot, written as a method so a route of any source fits the route table. */
type OfSnapshot<S, T> = { of(snapshot: S): T }["of"];

/** What a route says about itself; the route table in app.ts pairs it with the path and the handler. */
export interface RouteDoc<S = never> {
  summary: string;
  description: string;
  tag: string;
  /** The query parameters, documented from this schema (or the one for the snapshot served), parsed by the handler. */
  query?: TObject | OfSnapshot<S, TObject>;
  params?: TObject;
  /** The 200 body. */
  body: TSchema;
  /** Media types of the 200 body (JSON by default). */
  type?: string | readonly string[];
  /**
   * `snapshot`: rendered from the snapshot (ETag, If-None-Match → 304, 503 before one is loaded);
   * `static`: the same without a snapshot; false: never cached.
   */
  cached: "snapshot" | "static" | false;
  /** Headers of the 200 beyond the common ones, with what each says. */
  headers?: Record<string, string>;
  /** Statuses this route answers beyond the common ones (a 404 for an unknown id, a 503 that is not an error). */
  more?: Partial<Record<number, MoreStatus>>;
  /** The POST the path also answers (the same answer for a body too long for a URL). */
  post?: PostDoc;
  /** A real 200 body for the document, from the snapshot being served. */
  example?(snapshot: S, baseUrl: string): unknown;
}

export interface DocumentedRoute {
  path: string;
  limited: boolean;
  /** The route's burst group, when it is in one rather than the one-per-window group. */
  burst?: BurstRule;
  // biome-ignore lint/suspicious/noExplicitAny: each route's example reads its own kind of source.
  doc: RouteDoc<any>;
}

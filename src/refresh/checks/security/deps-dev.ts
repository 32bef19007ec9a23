/**
 * deps.dev's batch endpoints (API v3alpha), the one upstream that serves all three signals:
 * `POST /v3alpha/versionbatch` answers `{responses: [{request: {versionKey}, version?}], nextPageToken}`,
 * each version with its `advisoryKeys` (OSV ids) and `slsaProvenances`; `POST /v3alpha/projectbatch`
 * answers `{responses: [{request: {projectKey}, project?}], nextPageToken}`, each project with its
 * OpenSSF `scorecard` (`date`, `overallScore`). A response without its version or project means
 * deps.dev does not know it. Every value is checked here, the gate: an advisory id not of a known
 * form, a score outside 0..10 or a date that is not one is dropped and counted.
 */
import { ADVISORY_ID_PATTERN, MAX_ADVISORIES, SCORECARD_DATE_PATTERN } from "../../../catalog/model/security";
import { githubRepo } from "../../upstream/repo-links";
import type { Answer, UpstreamClient } from "../../upstream/upstream-client";
import { isObject } from "../packages/package-evidence";

/** Requests per batch: small enough that an answer stays far under the client's size cap. */
export const VERSION_BATCH = 100;
export const PROJECT_BATCH = 50;
/** Pages followed per batch: deps.dev paginates only large result sets. */
const MAX_PAGES = 5;

const ADVISORY_ID = new RegExp(ADVISORY_ID_PATTERN);
const DATE = new RegExp(SCORECARD_DATE_PATTERN);

export type System = "npm" | "pypi";
export interface VersionAsk {
  system: System;
  name: string;
  version: string;
}

export interface VersionFacts {
  advisories: string[];
  provenance: { repository: string; verified: boolean } | null;
}
export interface ProjectFacts {
  scorecard: { score: number; date: string } | null;
}

/** What one batch told: facts by key, `null` for what deps.dev does not know; keys absent were not answered. */
export interface BatchResult<T> {
  found: Map<string, T | null>;
  /** Values the gate dropped (ids, scores, dates not of their form). */
  dropped: number;
  /** Why the batch, or a page of it, was not answered. */
  failure: string | null;
}

export const versionKey = (v: VersionAsk) => `${v.system}:${v.name}@${v.version}`;
export const projectKey = (repo: string) => `github.com/${repo.toLowerCase()}`;

const str = (v: unknown) => (typeof v === "string" ? v : null);

/** One version's advisories and provenance, through the gate. */
function versionFacts(version: Record<string, unknown>, count: () => void): VersionFacts {
  const ids = new Set<string>();
  const keys = Array.isArray(version.advisoryKeys) ? version.advisoryKeys.slice(0, 500) : [];
  for (const key of keys) {
    const id = isObject(key) ? str(key.id) : null;
    if (id !== null && ADVISORY_ID.test(id)) ids.add(id);
    else count();
  }
  let provenance: VersionFacts["provenance"] = null;
  const provenances = Array.isArray(version.slsaProvenances) ? version.slsaProvenances.slice(0, 20) : [];
  for (const p of provenances) {
    const repository = isObject(p) ? githubRepo(p.sourceRepository) : null;
    if (repository === null) continue;
    const verified = isObject(p) && p.verified === true;
    if (provenance === null || (verified && !provenance.verified)) provenance = { repository, verified };
  }
  return { advisories: [...ids].sort().slice(0, MAX_ADVISORIES), provenance };
}

/**
 * A project's Scorecard, through the gate: a finite score in 0..10 (one decimal) and its day. A
 * Scorecard that fails is not an answer (undefined): the project stays unknown, not "not scored".
 */
function projectFacts(project: Record<string, unknown>, count: () => void): ProjectFacts | undefined {
  const card = project.scorecard;
  if (card === undefined || card === null) return { scorecard: null };
  const score = isObject(card) ? card.overallScore : null;
  const day = isObject(card) ? (str(card.date)?.slice(0, 10) ?? "") : "";
  const valid = typeof score === "number" && Number.isFinite(score) && score >= 0 && score <= 10;
  if (!valid || !DATE.test(day) || Number.isNaN(Date.parse(`${day}T00:00:00Z`))) {
    count();
    return undefined;
  }
  return { scorecard: { score: Math.round(score * 10) / 10, date: day } };
}

/** The request a response echoes, as this side's key; null when it is not one that was asked. */
type KeyOf = (request: unknown) => string | null;

async function batch<T>(
  client: UpstreamClient,
  path: string,
  requests: unknown[],
  keyOf: KeyOf,
  facts: (item: Record<string, unknown>, count: () => void) => T | undefined,
  field: "version" | "project",
  asked: ReadonlySet<string>,
): Promise<BatchResult<T>> {
  const result: BatchResult<T> = { found: new Map(), dropped: 0, failure: null };
  const count = () => result.dropped++;
  let pageToken: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const answer: Answer = await client.post(path, pageToken ? { requests, pageToken } : { requests });
    if (answer.kind !== "json") {
      result.failure = answer.kind === "missing" ? "endpoint not found" : answer.reason;
      return result;
    }
    const body = answer.body;
    if (!isObject(body) || !Array.isArray(body.responses)) {
      result.failure = "malformed answer";
      return result;
    }
    for (const response of body.responses.slice(0, requests.length)) {
      const key = isObject(response) ? keyOf(response.request) : null;
      if (key === null || !asked.has(key)) continue;
      const item = (response as Record<string, unknown>)[field];
      // Absent: deps.dev does not know it; present but not an object: not an answer.
      const value = item === undefined || item === null ? null : isObject(item) ? facts(item, count) : undefined;
      if (value !== undefined) result.found.set(key, value);
    }
    pageToken = str(body.nextPageToken);
    if (!pageToken || pageToken.length > 2000) return result;
  }
  return result;
}

const versionKeyOf: KeyOf = (request) => {
  const key = isObject(request) && isObject(request.versionKey) ? request.versionKey : null;
  const system = str(key?.system)?.toLowerCase();
  const name = str(key?.name);
  const version = str(key?.version);
  if ((system !== "npm" && system !== "pypi") || name === null || version === null) return null;
  return versionKey({ system, name, version });
};

const projectKeyOf: KeyOf = (request) => {
  const key = isObject(request) && isObject(request.projectKey) ? request.projectKey : null;
  const id = str(key?.id);
  return id === null ? null : id.toLowerCase();
};

/** Advisories and provenance of up to VERSION_BATCH versions, in one request (and its pages). */
export function versionBatch(client: UpstreamClient, versions: VersionAsk[]): Promise<BatchResult<VersionFacts>> {
  const requests = versions.map((v) => ({
    versionKey: { system: v.system.toUpperCase(), name: v.name, version: v.version },
  }));
  const asked = new Set(versions.map(versionKey));
  return batch(client, "/v3alpha/versionbatch", requests, versionKeyOf, versionFacts, "version", asked);
}

/** The Scorecards of up to PROJECT_BATCH GitHub repositories (`owner/name`), in one request. */
export function projectBatch(client: UpstreamClient, repos: string[]): Promise<BatchResult<ProjectFacts>> {
  const ids = repos.map(projectKey);
  const requests = ids.map((id) => ({ projectKey: { id } }));
  return batch(client, "/v3alpha/projectbatch", requests, projectKeyOf, projectFacts, "project", new Set(ids));
}

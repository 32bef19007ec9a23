/**
 * The npm registry's answers: `GET /{name}/{version|latest}` (the version document: `repository`,
 * `mcpName`) and `GET /-/npm/v1/attestations/{name}@{version}` (signed build provenance,
 * whose SLSA predicate names the workflow's repository). Provenance is optional: a 404 means none.
 */

import { githubRepo, mcpNameOf, mcpNameOwner } from "../../upstream/repo-links";
import type { Answer, UpstreamClient } from "../../upstream/upstream-client";
import { type Evidence, isObject, type Lookup } from "./package-evidence";

const VERSION = /^[0-9A-Za-z.+-]{1,100}$/;

/** `@scope/name` as one path segment, the way the registry expects it. */
const segment = (name: string) => name.replace("/", "%2f");

function repositoryOf(doc: Record<string, unknown>): string[] {
  const field = doc.repository;
  const url = typeof field === "string" ? field : isObject(field) ? field.url : null;
  const repo = githubRepo(url);
  return repo ? [repo] : [];
}

/** The repository a provenance attestation names, or null; `undefined` when the answer is malformed. */
function provenanceOf(answer: Answer): string | null | undefined {
  if (answer.kind === "missing") return null;
  if (answer.kind !== "json" || !isObject(answer.body) || !Array.isArray(answer.body.attestations)) return undefined;
  for (const attestation of answer.body.attestations.slice(0, 10)) {
    const payload = isObject(attestation) && isObject(attestation.bundle) ? attestation.bundle.dsseEnvelope : null;
    if (!isObject(payload) || typeof payload.payload !== "string" || payload.payload.length > 200_000) continue;
    try {
      const statement: unknown = JSON.parse(Buffer.from(payload.payload, "base64").toString("utf8"));
      const predicate = isObject(statement) ? statement.predicate : null;
      const build = isObject(predicate) ? predicate.buildDefinition : null;
      const params = isObject(build) ? build.externalParameters : null;
      const workflow = isObject(params) ? params.workflow : null;
      const repo = isObject(workflow) ? githubRepo(workflow.repository) : null;
      if (repo) return repo;
    } catch {}
  }
  return null;
}

/** The version document; for `latest` on a registry without dist-tag paths, the packument's `dist-tags.latest` one. */
async function versionDoc(client: UpstreamClient, name: string, version: string): Promise<Answer> {
  const answer = await client.get(`/${segment(name)}/${encodeURIComponent(version)}`);
  if (answer.kind !== "missing" || version !== "latest") return answer;
  const packument = await client.get(`/${segment(name)}`);
  if (packument.kind !== "json") return packument;
  const body = packument.body;
  const latest = isObject(body) && isObject(body["dist-tags"]) ? body["dist-tags"].latest : null;
  const doc = typeof latest === "string" && isObject(body) && isObject(body.versions) ? body.versions[latest] : null;
  return isObject(doc)
    ? { kind: "json", body: { version: latest, ...doc } }
    : { kind: "unknown", reason: "malformed answer" };
}

/**
 * One version (or `latest`) of an npm package, with its provenance. Provenance is optional: when
 * its answer cannot be read the evidence stands without it, `partial`, so it is asked again next run.
 */
export async function npmLookup(client: UpstreamClient, name: string, asked: string): Promise<Lookup> {
  const answer = await versionDoc(client, name, asked);
  if (answer.kind !== "json") return answer;
  const doc = answer.body;
  const version = isObject(doc) && typeof doc.version === "string" ? doc.version : asked;
  if (!isObject(doc) || version === "latest" || !VERSION.test(version) || (doc.name !== undefined && doc.name !== name))
    return { kind: "unknown", reason: "malformed answer" };
  const attestations = await client.get(`/-/npm/v1/attestations/${segment(name)}@${encodeURIComponent(version)}`);
  const provenance = provenanceOf(attestations);
  const evidence: Evidence = {
    version,
    repositories: repositoryOf(doc),
    mcpOwner: mcpNameOwner(doc.mcpName),
    mcpName: mcpNameOf(doc.mcpName),
    provenance: provenance ?? null,
  };
  return provenance === undefined ? { kind: "found", evidence, partial: true } : { kind: "found", evidence };
}

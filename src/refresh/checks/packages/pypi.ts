/**
 * PyPI's JSON API: `GET /pypi/{name}/{version}/json` or `/pypi/{name}/json` (the latest). Its
 * `info.project_urls` and `info.home_page` name the repository; `info.description` may carry the
 * MCP registry's `mcp-name: io.github.<owner>/<name>` line. Its Integrity API
 * (`GET /integrity/{name}/{version}/{filename}/provenance`, PEP 740) answers the attestation
 * bundles of a file the version's `urls[]` names, each with the Trusted Publisher that built it
 * (`publisher.kind` `GitHub`, `publisher.repository` `owner/name`); a 404 means none.
 */

import { githubRepo, mcpNameInText, mcpNameOwner } from "../../upstream/repo-links";
import type { Answer, UpstreamClient } from "../../upstream/upstream-client";
import { isObject, type Lookup } from "./package-evidence";
import { pypiNormalised } from "./package-keys";

const VERSION = /^[0-9A-Za-z.+!-]{1,100}$/;
const FILENAME = /^[A-Za-z0-9][A-Za-z0-9._+!-]{0,250}$/;

/** The first distribution file the version lists, the one whose provenance is asked. */
function firstFile(body: Record<string, unknown>): string | null {
  const urls = Array.isArray(body.urls) ? body.urls.slice(0, 100) : [];
  for (const file of urls)
    if (isObject(file) && typeof file.filename === "string" && FILENAME.test(file.filename)) return file.filename;
  return null;
}

/** The GitHub repository a provenance's Trusted Publisher is, or null; `undefined` when the answer is malformed. */
function publisherOf(answer: Answer): string | null | undefined {
  if (answer.kind === "missing") return null;
  if (answer.kind !== "json" || !isObject(answer.body) || !Array.isArray(answer.body.attestation_bundles))
    return undefined;
  for (const bundle of answer.body.attestation_bundles.slice(0, 10)) {
    const publisher = isObject(bundle) ? bundle.publisher : null;
    if (!isObject(publisher) || publisher.kind !== "GitHub") continue;
    const repo = githubRepo(publisher.repository);
    if (repo) return repo;
  }
  return null;
}

export async function pypiLookup(client: UpstreamClient, asked: string, version: string | null): Promise<Lookup> {
  // PyPI answers a name in its normalised form (PEP 503) and redirects the others, which are not followed.
  const name = pypiNormalised(asked);
  const path =
    version === null
      ? `/pypi/${encodeURIComponent(name)}/json`
      : `/pypi/${encodeURIComponent(name)}/${encodeURIComponent(version)}/json`;
  const answer = await client.get(path);
  if (answer.kind !== "json") return answer;
  const info = isObject(answer.body) ? answer.body.info : null;
  if (!isObject(answer.body) || !isObject(info) || typeof info.version !== "string" || !VERSION.test(info.version))
    return { kind: "unknown", reason: "malformed answer" };
  const urls = isObject(info.project_urls) ? Object.values(info.project_urls).slice(0, 50) : [];
  const repositories = [...new Set([...urls, info.home_page].map(githubRepo).filter((r): r is string => r !== null))];
  const file = firstFile(answer.body);
  const provenance =
    file === null
      ? null
      : publisherOf(
          await client.get(
            `/integrity/${encodeURIComponent(name)}/${encodeURIComponent(info.version)}/${encodeURIComponent(file)}/provenance`,
          ),
        );
  const mcpName = mcpNameInText(info.description);
  const evidence = {
    version: info.version,
    repositories: repositories.slice(0, 20),
    mcpOwner: mcpNameOwner(mcpName),
    mcpName,
    provenance: provenance ?? null,
  };
  return provenance === undefined ? { kind: "found", evidence, partial: true } : { kind: "found", evidence };
}

/**
 * PyPI's JSON API: `GET /pypi/{name}/{version}/json` or `/pypi/{name}/json` (the latest). Its
 * `info.project_urls` and `info.home_page` name the repository; `info.description` may carry the
 * MCP registry's `mcp-name: io.github.<owner>/<name>` line.
 */

import { githubRepo, mcpNameInText } from "../../upstream/repo-links";
import type { UpstreamClient } from "../../upstream/upstream-client";
import { isObject, type Lookup } from "./package-evidence";

const VERSION = /^[0-9A-Za-z.+!-]{1,100}$/;

/** PyPI answers a name in its normalised form (PEP 503) and redirects the others, which are not followed. */
const normalised = (name: string) => name.toLowerCase().replace(/[-_.]+/g, "-");

export async function pypiLookup(client: UpstreamClient, asked: string, version: string | null): Promise<Lookup> {
  const name = normalised(asked);
  const path =
    version === null
      ? `/pypi/${encodeURIComponent(name)}/json`
      : `/pypi/${encodeURIComponent(name)}/${encodeURIComponent(version)}/json`;
  const answer = await client.get(path);
  if (answer.kind !== "json") return answer;
  const info = isObject(answer.body) ? answer.body.info : null;
  if (!isObject(info) || typeof info.version !== "string" || !VERSION.test(info.version))
    return { kind: "unknown", reason: "malformed answer" };
  const urls = isObject(info.project_urls) ? Object.values(info.project_urls).slice(0, 50) : [];
  const repositories = [...new Set([...urls, info.home_page].map(githubRepo).filter((r): r is string => r !== null))];
  return {
    kind: "found",
    evidence: {
      version: info.version,
      repositories: repositories.slice(0, 20),
      mcpOwner: mcpNameInText(info.description),
      provenance: null,
    },
  };
}

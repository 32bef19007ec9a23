/**
 * deps.dev's batch endpoints as a real HTTP server on 127.0.0.1, speaking the v3alpha shapes:
 * `POST /v3alpha/versionbatch` ({requests: [{versionKey: {system, name, version}}], pageToken?})
 * answers {responses: [{request, version?}], nextPageToken}, each version with `versionKey`,
 * `advisoryKeys` [{id}] and `slsaProvenances` [{sourceRepository, commit, url, verified}];
 * `POST /v3alpha/projectbatch` ({requests: [{projectKey: {id}}]}) answers
 * {responses: [{request, project?}], nextPageToken}, each project with its `scorecard`
 * ({date, repository, scorecard, checks, overallScore, metadata}) when scored. A mode makes it hostile.
 */
import { LoopbackServer } from "./loopback";

export interface FakeVersion {
  advisories?: string[];
  /** The repository URL a SLSA provenance names, and whether deps.dev verified it. */
  provenance?: { sourceRepository: string; verified: boolean };
}

/** `garbage`: each asked item is a string, and a response about a version nobody asked rides along. */
export type DepsDevMode = "ok" | "down" | "hang" | "429" | "malformed" | "oversize" | "wrong-shape" | "garbage";

interface BatchBody {
  requests?: Array<Record<string, unknown>>;
  pageToken?: string;
}

export class FakeDepsDev extends LoopbackServer {
  /** Versions by `NPM:name@version` / `PYPI:name@version`. */
  readonly versions = new Map<string, FakeVersion>();
  /** Projects by `github.com/owner/repo` (lowercase): a Scorecard, or null for a known project without one. */
  readonly projects = new Map<string, { overallScore: unknown; date: string } | null>();
  mode: DepsDevMode = "ok";
  /** Responses per page: past it the answer carries a `nextPageToken`. */
  pageSize = 1000;
  /** Bodies asked, by path, in order. */
  readonly asked: Array<{ path: string; body: BatchBody }> = [];

  version(system: "NPM" | "PYPI", name: string, version: string, facts: FakeVersion = {}): void {
    this.versions.set(`${system}:${name}@${version}`, facts);
  }

  protected async answer(request: Request): Promise<Response> {
    const path = new URL(request.url).pathname;
    const body = (await request.json().catch(() => ({}))) as BatchBody;
    this.asked.push({ path, body });
    if (request.method !== "POST") return Response.json({ code: 12, message: "Method Not Allowed" }, { status: 405 });
    if (this.mode === "hang") return new Promise<Response>(() => {});
    if (this.mode === "down") return new Response("upstream connect error", { status: 503 });
    if (this.mode === "429")
      return new Response("Too Many Requests", { status: 429, headers: { "retry-after": "60" } });
    if (this.mode === "malformed")
      return new Response('{"responses": [', { headers: { "content-type": "application/json" } });
    if (this.mode === "oversize") return Response.json({ responses: [], padding: "x".repeat(3 * 1024 * 1024) });
    if (this.mode === "wrong-shape") return Response.json({ responses: { not: "a list" } });
    const requests = body.requests ?? [];
    if (this.mode === "garbage")
      return Response.json({
        responses: [
          {
            request: { versionKey: { system: "NPM", name: "planted", version: "1.0.0" } },
            version: { advisoryKeys: [] },
          },
          ...requests.map((r) => ({ request: r, version: "GHSA-8jxr-pcg8-qhm5", project: 7 })),
        ],
      });
    const responses =
      path === "/v3alpha/versionbatch"
        ? requests.map((r) => ({ request: r, ...this.versionOf(r) }))
        : path === "/v3alpha/projectbatch"
          ? requests.map((r) => ({ request: r, ...this.projectOf(r) }))
          : null;
    if (responses === null) return Response.json({ code: 5, message: "Not Found" }, { status: 404 });
    const start = Number(body.pageToken ?? "0");
    const end = start + this.pageSize;
    return Response.json({
      responses: responses.slice(start, end),
      nextPageToken: end < responses.length ? String(end) : "",
    });
  }

  private versionOf(request: Record<string, unknown>) {
    const key = request.versionKey as { system: string; name: string; version: string };
    const facts = this.versions.get(`${key.system}:${key.name}@${key.version}`);
    if (!facts) return {};
    return {
      version: {
        versionKey: key,
        purl: `pkg:${key.system.toLowerCase()}/${key.name}@${key.version}`,
        publishedAt: "2026-01-01T00:00:00Z",
        isDefault: false,
        licenses: ["MIT"],
        advisoryKeys: (facts.advisories ?? []).map((id) => ({ id })),
        links: [],
        slsaProvenances: facts.provenance
          ? [{ ...facts.provenance, commit: "0".repeat(40), url: "https://registry.example/attestations" }]
          : [],
        registries: [],
        relatedProjects: [],
      },
    };
  }

  private projectOf(request: Record<string, unknown>) {
    const id = String((request.projectKey as { id: string }).id);
    if (!this.projects.has(id)) return {};
    const card = this.projects.get(id)!;
    return {
      project: {
        projectKey: { id },
        openIssuesCount: 1,
        starsCount: 10,
        forksCount: 1,
        license: "MIT",
        description: "A project",
        homepage: "",
        ...(card
          ? {
              scorecard: {
                date: card.date,
                repository: { name: id, commit: "0".repeat(40) },
                scorecard: { version: "v5.0.0", commit: "0".repeat(40) },
                checks: [
                  {
                    name: "Maintained",
                    documentation: { shortDescription: "", url: "" },
                    score: 10,
                    reason: "",
                    details: [],
                  },
                ],
                overallScore: card.overallScore,
                metadata: [],
              },
            }
          : {}),
      },
    };
  }
}

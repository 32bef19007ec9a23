/**
 * The npm registry and PyPI as one real HTTP server on 127.0.0.1, speaking their documented
 * shapes: npm's packument (`GET /{name}`), version document (`GET /{name}/{version|dist-tag}`) and
 * attestations (`GET /-/npm/v1/attestations/{name}@{version}`, a DSSE envelope whose base64
 * in-toto statement carries the SLSA provenance predicate); PyPI's JSON API
 * (`GET /pypi/{name}/json`, `GET /pypi/{name}/{version}/json`, each version with one wheel in
 * `urls[]`) and Integrity API (`GET /integrity/{name}/{version}/{filename}/provenance`: PEP 740
 * attestation bundles with their Trusted Publisher). A mode makes it hostile.
 */
import { LoopbackServer } from "./loopback";

export interface NpmVersion {
  /** The document's `name`, when a hostile registry answers about another package. */
  name?: string;
  /** package.json's `repository`: a string or `{type, url}`. */
  repository?: string | { type: string; url: string };
  mcpName?: string;
  bin?: Record<string, string> | string;
  /** The repository a signed provenance names (`https://github.com/<this>`). */
  provenance?: string;
}

export interface PypiVersion {
  project_urls?: Record<string, string> | null;
  home_page?: string | null;
  description?: string;
  /** The GitHub repository its Trusted Publisher is (`owner/name`), for the Integrity API. */
  provenance?: string;
}

export type Mode = "ok" | "down" | "hang" | "429" | "malformed";

export class FakeRegistries extends LoopbackServer {
  readonly npm = new Map<string, { latest: string; versions: Record<string, NpmVersion> }>();
  readonly pypi = new Map<string, { latest: string; versions: Record<string, PypiVersion> }>();
  mode: Mode = "ok";
  /** Whether `GET /{name}/latest` answers (npm's does); without it only the packument names the latest. */
  distTagPaths = true;
  /** Whether the attestations endpoint fails (503) while the rest answers. */
  attestationsDown = false;
  /** Whether PyPI's Integrity API fails (503) while the rest answers. */
  integrityDown = false;
  /** Paths asked, in order. */
  readonly asked: string[] = [];

  protected answer(request: Request): Response | Promise<Response> {
    const path = new URL(request.url).pathname;
    this.asked.push(path);
    if (this.mode === "hang") return new Promise<Response>(() => {});
    if (this.mode === "down") return new Response("upstream error", { status: 503 });
    if (this.mode === "429") return new Response("slow down", { status: 429, headers: { "retry-after": "3600" } });
    if (this.mode === "malformed")
      return new Response('{"name": ', { headers: { "content-type": "application/json" } });
    const body = path.startsWith("/pypi/")
      ? this.pypiAnswer(path)
      : path.startsWith("/integrity/")
        ? this.integrityAnswer(path)
        : this.npmAnswer(path);
    if (isObject(body) && body.status === 503) return new Response("unavailable", { status: 503 });
    return body === null ? Response.json({ error: "Not found" }, { status: 404 }) : Response.json(body);
  }

  private npmAnswer(path: string): unknown {
    const decoded = decodeURIComponent(path.slice(1));
    const attest = /^-\/npm\/v1\/attestations\/(.+)@([^@]+)$/.exec(decoded);
    if (attest && this.attestationsDown) return { status: 503 };
    if (attest) {
      const repo = this.npm.get(attest[1]!)?.versions[attest[2]!]?.provenance;
      return repo ? attestations(attest[1]!, attest[2]!, repo) : null;
    }
    const parts = decoded.split("/");
    const name = parts[0]!.startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0]!;
    const rest = parts.slice(name.split("/").length);
    const pkg = this.npm.get(name);
    if (!pkg) return null;
    const doc = (version: string) => {
      const v = pkg.versions[version];
      if (!v) return null;
      const { provenance: _, ...fields } = v;
      return { name, version, description: "A package", ...fields, dist: { tarball: `${this.url}/${name}/-/x.tgz` } };
    };
    if (rest.length === 0)
      return {
        name,
        "dist-tags": { latest: pkg.latest },
        versions: Object.fromEntries(Object.keys(pkg.versions).map((v) => [v, doc(v)])),
      };
    const wanted = rest[0] === "latest" && this.distTagPaths ? pkg.latest : rest[0]!;
    return doc(wanted);
  }

  private integrityAnswer(path: string): unknown {
    if (this.integrityDown) return { status: 503 };
    const match = /^\/integrity\/([^/]+)\/([^/]+)\/([^/]+)\/provenance$/.exec(path);
    const repo = match
      ? this.pypi.get(decodeURIComponent(match[1]!))?.versions[decodeURIComponent(match[2]!)]?.provenance
      : undefined;
    return repo ? integrity(repo) : null;
  }

  private pypiAnswer(path: string): unknown {
    const match = /^\/pypi\/([^/]+)\/(?:([^/]+)\/)?json$/.exec(path);
    const pkg = match ? this.pypi.get(decodeURIComponent(match[1]!)) : undefined;
    if (!match || !pkg) return null;
    const version = match[2] ? decodeURIComponent(match[2]) : pkg.latest;
    const v = pkg.versions[version];
    if (!v) return null;
    const { provenance: _, ...fields } = v;
    const wheel = `${match[1]!.replace(/-/g, "_")}-${version}-py3-none-any.whl`;
    return {
      info: { name: match[1], version, summary: "A package", home_page: null, project_urls: null, ...fields },
      urls: [{ filename: wheel, packagetype: "bdist_wheel", url: `${this.url}/files/${wheel}` }],
      releases: match[2] ? undefined : Object.fromEntries(Object.keys(pkg.versions).map((k) => [k, []])),
    };
  }
}

/** `GET /integrity/{name}/{version}/{filename}/provenance`: the publisher's bundle, or 404 without provenance. */
function integrity(repo: string) {
  return {
    version: 1,
    attestation_bundles: [
      {
        publisher: { kind: "GitHub", repository: repo, workflow: "release.yml", environment: null },
        attestations: [{ version: 1, verification_material: {}, envelope: { statement: "e30=", signature: "c2ln" } }],
      },
    ],
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;

/** npm's attestations answer: one SLSA provenance statement, base64 in a DSSE envelope. */
function attestations(name: string, version: string, repo: string) {
  const statement = {
    _type: "https://in-toto.io/Statement/v1",
    subject: [{ name: `pkg:npm/${name}@${version}`, digest: { sha512: "00" } }],
    predicateType: "https://slsa.dev/provenance/v1",
    predicate: {
      buildDefinition: {
        buildType: "https://slsa-framework.github.io/github-actions-buildtypes/workflow/v1",
        externalParameters: {
          workflow: {
            ref: "refs/heads/main",
            repository: `https://github.com/${repo}`,
            path: ".github/workflows/publish.yml",
          },
        },
      },
    },
  };
  return {
    attestations: [
      {
        predicateType: "https://slsa.dev/provenance/v1",
        bundle: {
          mediaType: "application/vnd.dev.sigstore.bundle.v0.3+json",
          dsseEnvelope: {
            payload: Buffer.from(JSON.stringify(statement)).toString("base64"),
            payloadType: "application/vnd.in-toto+json",
            signatures: [{ sig: "c2ln", keyid: "" }],
          },
        },
      },
    ],
  };
}

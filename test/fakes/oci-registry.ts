/**
 * An OCI registry as a real HTTP server on 127.0.0.1, speaking the Docker Registry HTTP API v2 the
 * way public registries do for anonymous pulls: `GET /v2/<repo>/manifests/<ref>` answers 401 with
 * a `WWW-Authenticate: Bearer realm=…,service=…,scope=…` challenge until a token from
 * `GET /token?service=…&scope=repository:<repo>:pull` is sent; a tag names an image index
 * (an attestation entry first, then linux/arm64 and linux/amd64) or a single manifest; blobs are
 * redirected to another path (as registries send them to a CDN). A mode makes it hostile.
 */
import { createHash } from "node:crypto";
import { LoopbackServer } from "./loopback";

export type OciMode = "ok" | "down" | "429" | "hang" | "wrong-digest" | "foreign-realm" | "foreign-redirect";

const INDEX = "application/vnd.oci.image.index.v1+json";
const MANIFEST = "application/vnd.oci.image.manifest.v1+json";
const digestOf = (text: string) => `sha256:${createHash("sha256").update(text).digest("hex")}`;

export interface FakeImage {
  labels: Record<string, string>;
  /** A multi-platform image's tag names an index; otherwise the manifest itself. */
  index?: boolean;
}

export class FakeOciRegistry extends LoopbackServer {
  mode: OciMode = "ok";
  /** Requests seen, as `METHOD path` without the query. */
  readonly asked: string[] = [];
  private readonly blobs = new Map<string, string>();
  private readonly manifests = new Map<string, { type: string; text: string }>();

  /** Publishes `repo:tag` (repository path as the API names it, e.g. `library/x` or `acme/fs`). */
  add(repo: string, tag: string, image: FakeImage): void {
    const config = JSON.stringify({
      architecture: "amd64",
      os: "linux",
      config: { Env: ["PATH=/usr/bin"], Labels: image.labels },
      rootfs: { type: "layers", diff_ids: [] },
    });
    this.blobs.set(`${repo}@${digestOf(config)}`, config);
    const manifest = (conf: string) =>
      JSON.stringify({
        schemaVersion: 2,
        mediaType: MANIFEST,
        config: { mediaType: "application/vnd.oci.image.config.v1+json", digest: digestOf(conf), size: conf.length },
        layers: [],
      });
    const amd64 = manifest(config);
    this.manifests.set(`${repo}@${digestOf(amd64)}`, { type: MANIFEST, text: amd64 });
    if (!image.index) {
      this.manifests.set(`${repo}:${tag}`, { type: MANIFEST, text: amd64 });
      return;
    }
    // Another platform's image and an attestation, each with its own config, listed before amd64.
    const other = config.replace('"amd64"', '"arm64"').replace(/"Labels":\{[^}]*\}/, '"Labels":{}');
    this.blobs.set(`${repo}@${digestOf(other)}`, other);
    const arm64 = manifest(other);
    this.manifests.set(`${repo}@${digestOf(arm64)}`, { type: MANIFEST, text: arm64 });
    const entry = (text: string, os: string, architecture: string) => ({
      mediaType: MANIFEST,
      digest: digestOf(text),
      size: text.length,
      platform: { os, architecture },
    });
    const index = JSON.stringify({
      schemaVersion: 2,
      mediaType: INDEX,
      manifests: [entry(arm64, "unknown", "unknown"), entry(arm64, "linux", "arm64"), entry(amd64, "linux", "amd64")],
    });
    this.manifests.set(`${repo}:${tag}`, { type: INDEX, text: index });
  }

  protected answer(request: Request): Response | Promise<Response> {
    const url = new URL(request.url);
    this.asked.push(`${request.method} ${url.pathname}`);
    if (this.mode === "hang") return new Promise<Response>(() => {});
    if (this.mode === "down") return new Response("unavailable", { status: 503 });
    if (this.mode === "429") return new Response("too many requests", { status: 429 });
    if (url.pathname === "/token") {
      const scope = /^repository:([a-z0-9._/-]+):pull$/.exec(url.searchParams.get("scope") ?? "");
      return scope ? Response.json({ token: `t.${scope[1]}`, expires_in: 300 }) : new Response(null, { status: 400 });
    }
    const cdn = /^\/cdn\/(.+)@(sha256:[a-f0-9]{64})$/.exec(url.pathname);
    if (cdn) return this.blob(cdn[1]!, cdn[2]!);
    const match = /^\/v2\/(.+)\/(manifests|blobs)\/([^/]+)$/.exec(url.pathname);
    if (!match) return new Response(null, { status: 404 });
    const [, repo, kind, ref] = match as unknown as [string, string, string, string];
    if (request.headers.get("authorization") !== `Bearer t.${repo}`) {
      const realm = this.mode === "foreign-realm" ? "http://127.0.0.2:9/token" : `${this.url}/token`;
      const header = `Bearer realm="${realm}",service="fake-registry",scope="repository:${repo}:pull"`;
      return Response.json(
        { errors: [{ code: "UNAUTHORIZED" }] },
        { status: 401, headers: { "www-authenticate": header } },
      );
    }
    if (kind === "blobs") {
      const to = this.mode === "foreign-redirect" ? `http://127.0.0.2:9/cdn/${repo}@${ref}` : `/cdn/${repo}@${ref}`;
      return new Response(null, { status: 307, headers: { location: to } });
    }
    const found = this.manifests.get(ref.startsWith("sha256:") ? `${repo}@${ref}` : `${repo}:${ref}`);
    if (!found) return Response.json({ errors: [{ code: "MANIFEST_UNKNOWN" }] }, { status: 404 });
    return new Response(found.text, { headers: { "content-type": found.type } });
  }

  private blob(repo: string, digest: string): Response {
    const text = this.blobs.get(`${repo}@${digest}`);
    if (text === undefined) return new Response(null, { status: 404 });
    // A hostile registry serves other bytes than the digest names.
    const body = this.mode === "wrong-digest" ? text.replace("linux", "Linux") : text;
    return new Response(body, { headers: { "content-type": "application/octet-stream" } });
  }
}

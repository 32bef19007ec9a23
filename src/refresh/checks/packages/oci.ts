/**
 * An OCI image's ownership marks, read the way a registry serves them (Docker Registry HTTP API
 * v2, OCI distribution): the manifest by tag or digest (an index is followed to its linux/amd64
 * image, else its first real platform), then the image's config blob, whose `config.Labels` carry
 * the MCP registry's `io.modelcontextprotocol.server.name` and the OCI `org.opencontainers.image.source`.
 * Anonymous pulls answer 401 with a Bearer challenge: its token endpoint is asked only at the
 * registry's own address (Docker Hub's at auth.docker.io). Every manifest and blob must hash to
 * the digest that named it; anything else leaves the answer unknown.
 */
import { createHash } from "node:crypto";
import { imageRegistry, publicHttpsUrl } from "../../../catalog/model/public-hosts";
import { githubRepo, mcpNameOwner } from "../../upstream/repo-links";
import type { Raw, UpstreamClient } from "../../upstream/upstream-client";
import { isObject, type Lookup } from "./package-evidence";

const MANIFEST_TYPES = [
  "application/vnd.oci.image.index.v1+json",
  "application/vnd.docker.distribution.manifest.list.v2+json",
  "application/vnd.oci.image.manifest.v1+json",
  "application/vnd.docker.distribution.manifest.v2+json",
].join(", ");
const REPO = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*){0,5}$/;
const TAG = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/;
const DIGEST = /^sha256:[a-f0-9]{64}$/;
/** Token endpoints a registry may send a client to besides its own address. */
const TOKEN_HOSTS: Record<string, string[]> = { "docker.io": ["auth.docker.io"] };
const LABEL_NAME = "io.modelcontextprotocol.server.name";
const LABEL_SOURCE = "org.opencontainers.image.source";
const MAX_REDIRECTS = 2;

/** An image reference taken apart: its registry host, repository path and tag or digest. */
export interface ImageRef {
  host: string;
  repo: string;
  reference: string;
}

/** `[registry/]path[:tag|@digest]` as the registry's API names it (`library/x` for a Docker Hub official image), or null. */
export function imageRef(image: string): ImageRef | null {
  const host = imageRegistry(image);
  if (host === null) return null;
  const slash = image.indexOf("/");
  const first = slash < 0 ? "" : image.slice(0, slash);
  const named = first.includes(".") || first.includes(":") || first === "localhost";
  let rest = named ? image.slice(slash + 1) : image;
  let reference: string;
  const at = rest.indexOf("@");
  if (at >= 0) {
    reference = rest.slice(at + 1);
    rest = rest.slice(0, at);
  } else {
    const colon = rest.lastIndexOf(":");
    if (colon <= rest.lastIndexOf("/")) return null;
    reference = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
  }
  const repo = host === "docker.io" && !rest.includes("/") ? `library/${rest}` : rest;
  if (!REPO.test(repo) || !(DIGEST.test(reference) || TAG.test(reference))) return null;
  return { host, repo, reference };
}

const sha256 = (bytes: Uint8Array) => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;

function parse(bytes: Uint8Array): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(new TextDecoder("utf-8", { fatal: false }).decode(bytes));
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

/** `realm`, `service` and `scope` of a `Bearer` challenge. */
function challenge(header: string | null): Record<string, string> | null {
  if (!header || !/^Bearer\s/i.test(header) || header.length > 2000) return null;
  const params: Record<string, string> = {};
  for (const m of header.slice(7).matchAll(/([a-z_]+)="([^"]*)"/gi)) params[m[1]!.toLowerCase()] = m[2]!;
  return params.realm ? params : null;
}

/** One image's reads: the client, the address of the registry's API and the token once granted. */
class Pull {
  private token: string | null = null;

  constructor(
    private readonly client: UpstreamClient,
    private readonly ref: ImageRef,
  ) {}

  /** Whether a token endpoint is one this registry may send a client to. */
  private allowedRealm(realm: string): boolean {
    let url: URL;
    try {
      url = new URL(realm);
    } catch {
      return false;
    }
    const base = new URL(this.client.base);
    if (url.origin === base.origin) return true;
    return url.protocol === "https:" && (TOKEN_HOSTS[this.ref.host] ?? []).includes(url.hostname);
  }

  /** Takes an anonymous pull token for the repository from the challenge's endpoint; false when there is none to take. */
  private async authorize(header: string | null): Promise<boolean> {
    const params = challenge(header);
    if (params === null || this.token !== null || !this.allowedRealm(params.realm!)) return false;
    const url = new URL(params.realm!);
    if (params.service) url.searchParams.set("service", params.service);
    url.searchParams.set("scope", `repository:${this.ref.repo}:pull`);
    const raw = await this.client.send(url.href, { accept: "application/json" });
    const body = raw.kind === "answer" && raw.status === 200 ? parse(raw.bytes) : null;
    const token = body ? (body.token ?? body.access_token) : null;
    if (typeof token !== "string" || token.length > 10_000 || !/^[\x21-\x7e]+$/.test(token)) return false;
    this.token = token;
    return true;
  }

  /** GET a path of the repository's API, authorised and redirected (to its own origin or a public https address). */
  async get(path: string, accept: string): Promise<Raw> {
    let url = `${this.client.base}/v2/${this.ref.repo}/${path}`;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const sameOrigin = new URL(url).origin === new URL(this.client.base).origin;
      const headers: Record<string, string> = { accept };
      if (this.token !== null && sameOrigin) headers.authorization = `Bearer ${this.token}`;
      let raw = await this.client.send(url, headers);
      // The registry's token goes to the registry only, never to where it redirects.
      const challenged = raw.kind === "answer" && raw.status === 401 && sameOrigin ? raw.headers : null;
      if (challenged && (await this.authorize(challenged.get("www-authenticate"))))
        raw = await this.client.send(url, { accept, authorization: `Bearer ${this.token}` });
      if (raw.kind !== "answer" || ![301, 302, 303, 307, 308].includes(raw.status)) return raw;
      const next = redirectTarget(url, raw.headers.get("location"), this.client.base);
      if (next === null) return { kind: "unknown", reason: "redirect not followed" };
      url = next;
    }
    return { kind: "unknown", reason: "too many redirects" };
  }
}

/** A blob's redirect target when it is the registry's own origin or an https address at a public host (a CDN). */
function redirectTarget(from: string, location: string | null, base: string): string | null {
  if (!location || location.length > 4000) return null;
  let url: URL;
  try {
    url = new URL(location, from);
  } catch {
    return null;
  }
  if (url.origin === new URL(base).origin) return url.href;
  return url.protocol === "https:" && publicHttpsUrl(url.href) ? url.href : null;
}

type Read = { kind: "json"; body: Record<string, unknown> } | { kind: "missing" } | { kind: "unknown"; reason: string };

/** The JSON content a path answers, hashing to the digest that named it; or why not (a bent answer counts as a failure). */
async function verified(
  client: UpstreamClient,
  pull: Pull,
  path: string,
  digest: string | null,
  accept: string,
): Promise<Read> {
  const raw = await pull.get(path, accept);
  if (raw.kind !== "answer") return raw;
  if (raw.status === 404) return { kind: "missing" };
  if (raw.status !== 200) return { kind: "unknown", reason: `status ${raw.status}` };
  if (digest !== null && sha256(raw.bytes) !== digest) return client.failed("digest mismatch");
  const body = parse(raw.bytes);
  return body === null ? client.failed("malformed answer") : { kind: "json", body };
}

/** The platform manifest an index points to: linux/amd64, else the first that is an image (not an attestation). */
function platformDigest(index: Record<string, unknown>): string | null {
  const entries = Array.isArray(index.manifests) ? index.manifests.slice(0, 100).filter(isObject) : [];
  const platform = (e: Record<string, unknown>) => (isObject(e.platform) ? e.platform : {});
  const images = entries.filter((e) => platform(e).os !== "unknown" && typeof e.digest === "string");
  const pick = images.find((e) => platform(e).os === "linux" && platform(e).architecture === "amd64") ?? images[0];
  return pick && DIGEST.test(pick.digest as string) ? (pick.digest as string) : null;
}

/** What an image's labels say of its owner, for `verdict` (version: the tag or digest asked). */
export async function ociLookup(client: UpstreamClient, ref: ImageRef): Promise<Lookup> {
  const pull = new Pull(client, ref);
  const byDigest = DIGEST.test(ref.reference) ? ref.reference : null;
  let manifest = await verified(client, pull, `manifests/${ref.reference}`, byDigest, MANIFEST_TYPES);
  if (manifest.kind !== "json") return manifest;
  if (Array.isArray(manifest.body.manifests)) {
    const digest = platformDigest(manifest.body);
    if (digest === null) return { kind: "unknown", reason: "no image in the index" };
    manifest = await verified(client, pull, `manifests/${digest}`, digest, MANIFEST_TYPES);
    if (manifest.kind !== "json") return manifest;
  }
  const config = isObject(manifest.body.config) ? manifest.body.config.digest : null;
  if (typeof config !== "string" || !DIGEST.test(config)) return client.failed("malformed answer");
  const blob = await verified(client, pull, `blobs/${config}`, config, "application/json, */*");
  if (blob.kind !== "json") return blob.kind === "missing" ? { kind: "unknown", reason: "config missing" } : blob;
  const inner = isObject(blob.body.config) ? blob.body.config : {};
  const labels = isObject(inner.Labels) ? inner.Labels : {};
  client.succeeded();
  const source = githubRepo(labels[LABEL_SOURCE]);
  return {
    kind: "found",
    evidence: {
      version: ref.reference,
      repositories: source ? [source] : [],
      mcpOwner: mcpNameOwner(labels[LABEL_NAME]),
      provenance: null,
    },
  };
}

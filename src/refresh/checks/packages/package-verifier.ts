/**
 * The package checks of one refresh run: npm, PyPI and the OCI registries asked at most once per
 * package version or image reference (their answers cached beside the snapshot until it changes),
 * all requests under one budget (count, per-request timeout, run deadline). A registry set to
 * `off` is never asked.
 */
import { Type } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import type { RequestLimits } from "../../../settings";
import { readJsonFile, sidePath, writeJsonFile } from "../../side-files";
import { UpstreamBudget, UpstreamClient } from "../../upstream/upstream-client";
import { npmLookup } from "./npm";
import { imageRef, ociLookup } from "./oci";
import { EvidenceSchema, type Lookup } from "./package-evidence";
import { pypiLookup } from "./pypi";

/** Base URLs by registry (NPM_REGISTRY_URL, PYPI_URL, OCI_REGISTRY_URL); null (or no `oci`) is off. */
export interface PackageOptions {
  npm: string | null;
  pypi: string | null;
  /** `own`: each image's own registry over https; a URL: every image's registry answered there (a mirror). */
  oci?: string | null;
  limits: RequestLimits;
}

/** Where an image's registry answers its API when each is asked at its own address. */
const OWN_ADDRESS: Record<string, string> = { "docker.io": "https://registry-1.docker.io" };

export type PackageKind = "npm" | "pypi";

/** How long a package's latest version is taken as still the latest. */
export const LATEST_TTL_MS = 12 * 3_600_000;
/** Cached versions not used for this long are forgotten. */
const FORGET_AFTER_MS = 30 * 24 * 3_600_000;
const MAX_ENTRIES = 50_000;

/**
 * The cache file's version: 2 since evidence holds PyPI's provenance and the MCP registry name in
 * full. A version 1 file (evidence without them) is not read: every package is asked again once.
 */
const CACHE_VERSION = 2;
const CacheFile = Type.Object({
  version: Type.Literal(CACHE_VERSION),
  versions: Type.Record(
    Type.String({ maxLength: 300 }),
    Type.Object({ evidence: EvidenceSchema, usedAt: Type.Number() }),
  ),
  latest: Type.Record(
    Type.String({ maxLength: 300 }),
    Type.Object({ version: Type.String({ maxLength: 100 }), at: Type.Number() }),
  ),
});
type CacheFile = (typeof CacheFile)["static"];
const checkCache = TypeCompiler.Compile(CacheFile);

export class PackageVerifier {
  readonly budget: UpstreamBudget;
  private readonly clients: Record<PackageKind, UpstreamClient | null>;
  private readonly oci: string | null;
  /** One client per image registry, so one that fails is left alone without the others. */
  private readonly ociClients = new Map<string, UpstreamClient>();
  private readonly cache: CacheFile;
  private readonly path: string;
  /** Lookups of this run, so two repositories naming one version cost one request. */
  private readonly pending = new Map<string, Promise<Lookup>>();
  requests = { cached: 0 };

  constructor(
    options: PackageOptions,
    databasePath: string,
    private readonly now: () => number = Date.now,
  ) {
    this.budget = new UpstreamBudget(options.limits, now());
    const client = (base: string | null) => (base === null ? null : new UpstreamClient(base, this.budget));
    this.clients = { npm: client(options.npm), pypi: client(options.pypi) };
    this.oci = options.oci ?? null;
    this.path = sidePath(databasePath, "packages.json");
    const stored = readJsonFile<unknown>(this.path);
    this.cache = checkCache.Check(stored) ? stored : { version: CACHE_VERSION, versions: {}, latest: {} };
  }

  enabled(kind: PackageKind | "oci"): boolean {
    return kind === "oci" ? this.oci !== null : this.clients[kind] !== null;
  }

  /** What an image's registry says of its labels (`image` as an instruction runs it): cached by reference. */
  image(image: string): Promise<Lookup> {
    const ref = imageRef(image);
    if (ref === null) return Promise.resolve({ kind: "unknown", reason: "image reference not read" });
    return this.lookup("oci", `${ref.host}/${ref.repo}`, ref.reference);
  }

  private ociClient(host: string): UpstreamClient | null {
    if (this.oci === null) return null;
    const base = this.oci === "own" ? (OWN_ADDRESS[host] ?? `https://${host}`) : this.oci;
    const client = this.ociClients.get(host) ?? new UpstreamClient(base, this.budget);
    this.ociClients.set(host, client);
    return client;
  }

  /** What the registry says of `name@version`: from the cache, or one request (two with npm's or PyPI's provenance). */
  lookup(kind: PackageKind | "oci", name: string, version: string): Promise<Lookup> {
    const key = `${kind}:${name}@${version}`;
    const cached = this.cache.versions[key];
    if (cached) {
      cached.usedAt = this.now();
      this.requests.cached++;
      return Promise.resolve({ kind: "found", evidence: cached.evidence });
    }
    const running = this.pending.get(key);
    if (running) return running;
    const promise = this.ask(kind, name, version).then((found) => {
      if (found.kind === "found" && !found.partial && found.evidence.version === version)
        this.cache.versions[key] = { evidence: found.evidence, usedAt: this.now() };
      return found;
    });
    this.pending.set(key, promise);
    return promise;
  }

  /** The latest version's evidence: the version from the cache while it is fresh, else asked again. */
  async latest(kind: PackageKind, name: string): Promise<Lookup> {
    const key = `${kind}:${name}`;
    const known = this.cache.latest[key];
    if (known && this.now() - known.at < LATEST_TTL_MS) return this.lookup(kind, name, known.version);
    const running = this.pending.get(key);
    const found = await (running ?? this.pending.set(key, this.ask(kind, name, null)).get(key)!);
    if (found.kind === "found" && !found.partial) {
      this.cache.latest[key] = { version: found.evidence.version, at: this.now() };
      this.cache.versions[`${kind}:${name}@${found.evidence.version}`] = {
        evidence: found.evidence,
        usedAt: this.now(),
      };
    }
    return found;
  }

  private ask(kind: PackageKind | "oci", name: string, version: string | null): Promise<Lookup> {
    if (kind === "oci") {
      const slash = name.indexOf("/");
      const client = this.ociClient(name.slice(0, slash));
      if (client === null || version === null) return Promise.resolve({ kind: "unknown", reason: "registry off" });
      return ociLookup(client, { host: name.slice(0, slash), repo: name.slice(slash + 1), reference: version });
    }
    const client = this.clients[kind];
    if (client === null) return Promise.resolve({ kind: "unknown", reason: "registry off" });
    return kind === "npm" ? npmLookup(client, name, version ?? "latest") : pypiLookup(client, name, version);
  }

  /** Writes the cache beside the database, without what was not used for a month; ends the run's timer. */
  save(): void {
    this.budget.end();
    const cutoff = this.now() - FORGET_AFTER_MS;
    const versions = Object.entries(this.cache.versions)
      .filter(([, v]) => v.usedAt >= cutoff)
      .sort((a, b) => b[1].usedAt - a[1].usedAt)
      .slice(0, MAX_ENTRIES);
    const latest = Object.entries(this.cache.latest)
      .filter(([, v]) => v.at >= cutoff)
      .slice(0, MAX_ENTRIES);
    writeJsonFile(this.path, {
      version: CACHE_VERSION,
      versions: Object.fromEntries(versions),
      latest: Object.fromEntries(latest),
    });
  }
}

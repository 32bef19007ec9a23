/**
 * The refresh step after the fetch: every npm and PyPI install line is checked against its
 * registry and marked (`package_verified`, `package_note`, `package_proof`): a line is the
 * repository's own only with proof (package-verdict.ts). An MCP server whose package.json or
 * pyproject.toml names a package whose latest version carries signed provenance from it gets the
 * lines for that version; a name alone, which anyone may publish, gives none. Lines are built by the manifest reader's own checks and the details pass
 * their schema again before they replace the fetched ones. Nothing here fails the refresh.
 */
import { type Install, MAX_INSTRUCTIONS, type PluginDetails, validDetails } from "../../../catalog/model/details";
import type { Outcome } from "../../fetch/outcome";
import type { ManifestReader } from "../../manifests/reader";
import { packageKey } from "./package-keys";
import {
  type LineSource,
  ociVerdict,
  type Proof,
  type RegistryName,
  unknownVerdict,
  type Verdict,
  verdict,
} from "./package-verdict";
import type { PackageKind, PackageVerifier } from "./package-verifier";

type Fetched = Extract<Outcome, { kind: "fetched" }>;

const REGISTRY: Record<PackageKind, RegistryName> = { npm: "npm", pypi: "PyPI" };
/** The files a derived line comes from; server.json's lines never name them. */
const DERIVED_FROM: Record<PackageKind, string> = { npm: "package.json", pypi: "pyproject.toml" };
const CONCURRENCY = 8;

/** The proofs a line may have, as `package_proof` names them. */
export const PROOF_KINDS = ["provenance", "server-json", "ghcr", "mcp-registry"] as const;
type ProofKind = (typeof PROOF_KINDS)[number];

export interface PackageCounts {
  /** Lines by verdict; `unproven` lines are counted among `unverified` too. */
  verified: number;
  unverified: number;
  unknown: number;
  unproven: number;
  /** MCP servers given lines derived from their package files. */
  derived: number;
  /** MCP servers checked, and how many of them have a line proven by each kind. */
  mcp_servers: number;
  proven_servers: Record<ProofKind, number>;
  /** MCP servers whose package lines are all unproven (none proven, one unproven at least). */
  unproven_servers: number;
}

export function noCounts(): PackageCounts {
  return {
    verified: 0,
    unverified: 0,
    unknown: 0,
    unproven: 0,
    derived: 0,
    mcp_servers: 0,
    proven_servers: { provenance: 0, "server-json": 0, ghcr: 0, "mcp-registry": 0 },
    unproven_servers: 0,
  };
}

function addCounts(total: PackageCounts, more: PackageCounts): void {
  for (const key of [
    "verified",
    "unverified",
    "unknown",
    "unproven",
    "derived",
    "mcp_servers",
    "unproven_servers",
  ] as const)
    total[key] += more[key];
  for (const kind of PROOF_KINDS) total.proven_servers[kind] += more.proven_servers[kind];
}

const isPackageKind = (kind: string): kind is PackageKind => kind === "npm" || kind === "pypi";

/** The last word a package line runs (`name@version`, `name==version`, an image), from its command or configuration. */
function specOf(entry: Install): string | null {
  let spec: unknown = entry.command?.split(" ").at(-1);
  if (entry.command === undefined && entry.config) {
    const servers = entry.config.mcpServers as Record<string, { args?: unknown }> | undefined;
    const args = servers ? Object.values(servers)[0]?.args : undefined;
    spec = Array.isArray(args) ? args.at(-1) : undefined;
  }
  return typeof spec === "string" ? spec : null;
}

/** `name` and `version` of the package an npm or PyPI line runs. */
export function packageOf(entry: Install): { name: string; version: string } | null {
  const spec = specOf(entry);
  if (spec === null) return null;
  const at = entry.kind === "npm" ? spec.lastIndexOf("@") : spec.indexOf("==");
  if (at <= 0) return null;
  return { name: spec.slice(0, at), version: spec.slice(at + (entry.kind === "npm" ? 1 : 2)) };
}

/** The words a line launches: its command after `--`, or its configuration's command and arguments. */
function launchOf(entry: Install): string[] {
  if (entry.command !== undefined) {
    const words = entry.command.split(" ");
    const dash = words.indexOf("--");
    return dash < 0 ? [] : words.slice(dash + 1);
  }
  const servers = entry.config?.mcpServers as Record<string, { command?: unknown; args?: unknown }> | undefined;
  const server = servers ? Object.values(servers)[0] : undefined;
  const args = Array.isArray(server?.args) ? server.args : [];
  return [server?.command, ...args].filter((w): w is string => typeof w === "string");
}

/** The image a `docker run -i --rm [-e NAME]… image [args]` line runs (the only docker launch the rules accept). */
export function imageOf(entry: Install): string | null {
  const words = launchOf(entry);
  if (words[0] !== "docker" || words[1] !== "run") return null;
  let i = 4;
  while (words[i]?.startsWith("-")) i += 2;
  return words[i] ?? null;
}

/** One repository to check: its id and the ids it had before (the catalog's `previous_ids`, the id asked for). */
interface Subject {
  repo: string;
  formerIds: string[];
  /** The packages its owner's records in the official MCP registry list (package-keys.ts). */
  registered: ReadonlySet<string>;
}

/** Where a line comes from, with whether the MCP registry's record of its owner lists its package. */
const sourceOf = (who: Subject, kind: PackageKind, name: string, source: LineSource): LineSource => ({
  ...source,
  registry: who.registered.has(packageKey(kind, name)),
});

async function verdictFor(
  verifier: PackageVerifier,
  kind: PackageKind,
  pkg: { name: string; version: string },
  who: Subject,
  source: LineSource,
): Promise<Verdict> {
  const found = await verifier.lookup(kind, pkg.name, pkg.version);
  if (found.kind === "found")
    return verdict(REGISTRY[kind], found.evidence, who.repo, who.formerIds, sourceOf(who, kind, pkg.name, source));
  if (found.kind === "missing") return { verified: false, note: `${REGISTRY[kind]} has no such package version` };
  return unknownVerdict(REGISTRY[kind], found.reason);
}

/**
 * An image's verdict: a ghcr.io namespace is a GitHub account, read from the reference; elsewhere
 * the labels its registry serves, when the OCI registries are asked.
 */
async function imageVerdict(verifier: PackageVerifier, image: string | null, who: Subject): Promise<Verdict> {
  if (image === null) return unknownVerdict("OCI", "image not read");
  if (/^ghcr\.io\//i.test(image) || !verifier.enabled("oci")) return ociVerdict(image, who.repo, who.formerIds);
  const found = await verifier.image(image);
  if (found.kind === "found") return verdict("OCI", found.evidence, who.repo, who.formerIds);
  if (found.kind === "missing") return { verified: false, note: "OCI registry has no such image" };
  return unknownVerdict("OCI", found.reason);
}

function mark(entry: Install, v: Verdict): Install {
  const { package_proof: _, ...rest } = entry;
  return {
    ...rest,
    package_verified: v.verified,
    package_note: v.note,
    ...(v.proof ? { package_proof: v.proof } : {}),
  };
}

/** Proofs a derived line may have: what a stranger publishing the name in the package file cannot write. */
const DERIVABLE: ReadonlySet<Proof | undefined> = new Set<Proof>(["provenance", "mcp-registry"]);

/** The lines for the package a repository's package file names, when its registry confirms it at its latest version. */
async function derive(
  verifier: PackageVerifier,
  reader: ManifestReader,
  kind: PackageKind,
  name: string,
  who: Subject,
): Promise<Install[]> {
  const found = await verifier.latest(kind, name);
  if (found.kind !== "found") return [];
  const source = sourceOf(who, kind, name, { serverJson: false, name: null });
  const v = verdict(REGISTRY[kind], found.evidence, who.repo, who.formerIds, source);
  if (v.verified !== true || !DERIVABLE.has(v.proof)) return [];
  return reader.packageLines(kind, name, found.evidence.version, who.repo, DERIVED_FROM[kind]).map((i) => mark(i, v));
}

async function checkOne(
  outcome: Fetched,
  details: PluginDetails,
  who: Subject,
  verifier: PackageVerifier,
  reader: ManifestReader,
): Promise<PackageCounts> {
  const counts = noCounts();
  const source: LineSource = { serverJson: true, name: details.mcp_registry?.name ?? null };
  const count = (v: Verdict) => {
    counts[v.verified === true ? "verified" : v.verified === false ? "unverified" : "unknown"]++;
    if (v.proof === "unproven") counts.unproven++;
  };
  const kept = details.install.filter((i) => !(isPackageKind(i.kind) && i.from === DERIVED_FROM[i.kind]));
  const install: Install[] = [];
  for (const entry of kept) {
    const pkg = isPackageKind(entry.kind) && verifier.enabled(entry.kind) ? packageOf(entry) : null;
    if (entry.kind === "oci") {
      const v = await imageVerdict(verifier, imageOf(entry), who);
      count(v);
      install.push(mark(entry, v));
      continue;
    }
    if (pkg === null || !isPackageKind(entry.kind)) {
      install.push(entry);
      continue;
    }
    const from = entry.from === "server.json" ? source : { serverJson: false, name: null };
    const v = await verdictFor(verifier, entry.kind, pkg, who, from);
    count(v);
    install.push(mark(entry, v));
  }
  if (details.works_with.includes("mcp") && outcome.packages) {
    for (const kind of ["npm", "pypi"] as const) {
      const name = outcome.packages[kind];
      const covered = install.some((i) => i.kind === kind && i.package_verified !== false);
      if (!name || covered || !verifier.enabled(kind)) continue;
      const lines = await derive(verifier, reader, kind, name, who);
      if (lines.length > 0 && install.length + lines.length <= MAX_INSTRUCTIONS) {
        install.push(...lines);
        counts.derived++;
      }
    }
  }
  const checked = validDetails({ ...details, install });
  if (checked) outcome.details = checked;
  if (details.works_with.includes("mcp")) {
    counts.mcp_servers = 1;
    const proofs = new Set((checked ?? details).install.map((i) => i.package_proof));
    for (const kind of PROOF_KINDS) if (proofs.has(kind)) counts.proven_servers[kind] = 1;
    if (proofs.has("unproven") && !PROOF_KINDS.some((k) => proofs.has(k))) counts.unproven_servers = 1;
  }
  return counts;
}

/**
 * Checks every fetched repository's packages (outcomes by the id asked for), CONCURRENCY at a
 * time; `formerIds` gives a repository's former ids, `registered` the packages the official MCP
 * registry's records in its owner's namespace list (by the ids it is known by). Returns what it found, by verdict.
 */
export async function checkPackages(
  outcomes: Iterable<[string, Outcome]>,
  formerIds: (id: string) => string[],
  verifier: PackageVerifier,
  reader: ManifestReader,
  registered: (ids: string[]) => ReadonlySet<string> = () => new Set(),
): Promise<PackageCounts> {
  const todo = [...outcomes].filter(
    (entry): entry is [string, Fetched & { details: PluginDetails }] =>
      entry[1].kind === "fetched" && !!entry[1].details,
  );
  const total = noCounts();
  let next = 0;
  const worker = async () => {
    while (next < todo.length) {
      const [asked, outcome] = todo[next++]!;
      const former = [asked, ...formerIds(asked), ...formerIds(outcome.facts.full_name)];
      const who = { repo: outcome.facts.full_name, formerIds: former, registered: registered(former) };
      const counts = await checkOne(outcome, outcome.details, who, verifier, reader);
      addCounts(total, counts);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return total;
}

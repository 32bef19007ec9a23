/**
 * `bun run bench/pinned-corpus.ts <folder>`: what a refresh would ask deps.dev about a local corpus
 * of real repositories (`<folder>/<owner>/<repo>/…`, never committed): the manifest reader's
 * install lines, and the exact npm and PyPI versions they pin (src/refresh/checks/security/security-check.ts).
 * Prints the repositories with install lines, those with a pinned version, the versions, and the
 * batch requests they and the repositories' projects cost. Reads only local files.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { PROJECT_BATCH, VERSION_BATCH } from "../src/refresh/checks/security/deps-dev";
import { pinnedVersions } from "../src/refresh/checks/security/security-check";
import { loadDiscoveryRules } from "../src/refresh/discover/discovery-rules";
import { MANIFEST_FILES, MANIFEST_TREES, ManifestReader } from "../src/refresh/manifests/reader";
import { GateCounts } from "../src/refresh/upstream/gate";

const root = process.argv[2];
if (!root) throw new Error("usage: bun run bench/pinned-corpus.ts <folder>");
const rules = loadDiscoveryRules(join(import.meta.dir, "..", "db"));
const blob = (path: string) => {
  if (!existsSync(path) || !statSync(path).isFile()) return null;
  const text = readFileSync(path, "utf8");
  return { byteSize: Buffer.byteLength(text), isTruncated: false, text };
};
const tree = (path: string) =>
  existsSync(path) && statSync(path).isDirectory()
    ? {
        entries: readdirSync(path, { withFileTypes: true }).map((e) => ({
          name: e.name,
          type: e.isDirectory() ? "tree" : "blob",
        })),
      }
    : null;

const reader = new ManifestReader(new GateCounts(), rules.evidence);
const versions = new Map<string, string>();
let repos = 0;
let withPackageLines = 0;
let withPinned = 0;
for (const owner of readdirSync(root)) {
  for (const name of readdirSync(join(root, owner))) {
    const id = `${owner}/${name}`;
    const dir = join(root, owner, name);
    const node: Record<string, unknown> = {};
    for (const [key, path] of Object.entries(MANIFEST_FILES)) node[`m_${key}`] = blob(join(dir, path));
    for (const [key, path] of Object.entries(MANIFEST_TREES)) node[`m_${key}`] = tree(join(dir, path));
    const details = reader.checked(reader.read(node, id).details, id);
    repos++;
    if (!details) continue;
    if (details.install.some((i) => i.kind === "npm" || i.kind === "pypi")) withPackageLines++;
    const pinned = pinnedVersions(details);
    if (pinned.length > 0) withPinned++;
    for (const v of pinned) versions.set(`${v.system}:${v.name}@${v.version}`, id);
  }
}
const requests = Math.ceil(versions.size / VERSION_BATCH) + Math.ceil(repos / PROJECT_BATCH);
console.log(`repositories ${repos}; with an npm or PyPI line ${withPackageLines}; with a pinned version ${withPinned}`);
console.log(`distinct pinned versions ${versions.size}; deps.dev batch requests for all: ${requests}`);
if (process.argv.includes("--list")) for (const [key, id] of versions) console.log(`${key}\t${id}`);

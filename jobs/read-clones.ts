/**
 * Rebuilds db/depth.json, the embedded default's contents, install instructions, flags and
 * works_with, from local copies of its repositories: no token, no network.
 *
 *   npm run default:depth -- <folder> [--db <dir>] [--fresh]
 *
 * `<folder>/<owner>/<repo>/` is a work tree (a clone, or a partial copy holding only the manifest
 * files: a missing file is absent) or a bare git directory (`<repo>` or `<repo>.git`). Each
 * repository of `<dir>/plugins.json` (db/ by default) found there is read by the refresh's own
 * manifest reader; its entry keeps the commit and the date read (a `.corpus.json` beside the files
 * may name both). Entries of repositories not in the folder are kept unless `--fresh`.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { writeAtomically } from "../src/base/atomic-write";
import { type DepthEntry, type DepthFile, depthFileText, readDepthFile } from "../src/catalog/model/depth";
import { HAS_KINDS, type HasKind, hasKinds } from "../src/catalog/model/details";
import { DB_DIR, loadDefaultData } from "../src/catalog/model/editorial";
import { loadDiscoveryRules } from "../src/refresh/discover/discovery-rules";
import { gitDirFiles, headCommit, isBareGitDir, type RepoFiles, workTreeFiles } from "../src/refresh/fetch/clone-files";
import { cloneReader } from "../src/refresh/fetch/clones";
import { GateCounts } from "../src/refresh/upstream/gate";

const ABOUT =
  "What each repository's manifests said, read from a copy of it by jobs/read-clones.ts (npm run default:depth -- <folder of clones>): the refresh's own reader, with the commit read and the date.";

interface Copy {
  files: RepoFiles;
  commit: string | null;
  readAt: string;
}

const isoSeconds = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, "Z");

/** The copies in `folder` by lowercased `owner/repo`. */
function indexFolder(folder: string): Map<string, string> {
  const found = new Map<string, string>();
  // The folder is the maintainer's own: a linked copy (a mirror kept elsewhere) counts as a folder.
  const dirs = (dir: string) =>
    readdirSync(dir, { withFileTypes: true }).filter(
      (e) =>
        !e.name.startsWith(".") &&
        (e.isDirectory() ||
          (e.isSymbolicLink() && statSync(join(dir, e.name), { throwIfNoEntry: false })?.isDirectory())),
    );
  for (const owner of dirs(folder)) {
    for (const repo of dirs(join(folder, owner.name))) {
      const name = repo.name.endsWith(".git") ? repo.name.slice(0, -4) : repo.name;
      found.set(`${owner.name}/${name}`.toLowerCase(), join(folder, owner.name, repo.name));
    }
  }
  return found;
}

/** `.corpus.json`'s commit and read date, each when it is well formed. */
function corpusNote(dir: string): { commit: string | null; readAt: string | null } {
  const path = join(dir, ".corpus.json");
  if (!existsSync(path)) return { commit: null, readAt: null };
  try {
    const note = JSON.parse(readFileSync(path, "utf8")) as { commit?: unknown; read_at?: unknown };
    const commit = typeof note.commit === "string" && /^[0-9a-f]{40}$/.test(note.commit) ? note.commit : null;
    const at = typeof note.read_at === "string" ? new Date(note.read_at) : null;
    return { commit, readAt: at && !Number.isNaN(at.getTime()) ? isoSeconds(at) : null };
  } catch {
    return { commit: null, readAt: null };
  }
}

function openCopy(dir: string, now: Date): Copy {
  if (isBareGitDir(dir)) return { files: gitDirFiles(dir), commit: headCommit(dir), readAt: isoSeconds(now) };
  const note = corpusNote(dir);
  const gitDir = join(dir, ".git");
  const commit = note.commit ?? (existsSync(gitDir) ? headCommit(gitDir) : null);
  return { files: workTreeFiles(dir), commit, readAt: note.readAt ?? isoSeconds(now) };
}

function main(): void {
  const { values, positionals } = parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: { db: { type: "string" }, fresh: { type: "boolean" } },
  });
  const folder = positionals[0];
  if (!folder || !statSync(folder, { throwIfNoEntry: false })?.isDirectory()) {
    console.error("usage: npm run default:depth -- <folder of clones> [--db <dir>] [--fresh]");
    process.exit(2);
  }
  const dbDir = values.db ?? DB_DIR;
  const { facts } = loadDefaultData(dbDir);
  const counts = new GateCounts();
  const read = cloneReader(counts, loadDiscoveryRules(dbDir).evidence);
  const copies = indexFolder(folder);
  const now = new Date();
  const before = values.fresh ? {} : readDepthFile(dbDir).plugins;
  const previous = new Map(Object.entries(before).map(([id, e]) => [id.toLowerCase(), e]));
  const plugins: Record<string, DepthEntry> = {};
  let found = 0;
  let unreadable = 0;
  for (const { full_name: id } of facts) {
    const dir = copies.get(id.toLowerCase());
    if (dir === undefined) {
      const kept = previous.get(id.toLowerCase());
      if (kept) plugins[id] = kept;
      continue;
    }
    found++;
    const copy = openCopy(dir, now);
    const details = read(copy.files, id);
    if (details === null) {
      unreadable++;
      continue;
    }
    plugins[id] = { read_at: copy.readAt, commit: copy.commit, details };
  }
  const file: DepthFile = { about: ABOUT, plugins };
  const out = join(dbDir, "depth.json");
  writeAtomically(out, (tmp) => writeFileSync(tmp, depthFileText(file)));
  const entries = Object.values(plugins);
  const having = (kind: HasKind) => entries.filter((e) => hasKinds(e.details).includes(kind)).length;
  console.log(
    JSON.stringify({
      default: facts.length,
      copies_found: found,
      details_refused: unreadable,
      entries: entries.length,
      has: Object.fromEntries(HAS_KINDS.map((k) => [k, having(k)])),
      left_out: GateCounts.text(counts.leftOut),
      written: out,
    }),
  );
}

main();

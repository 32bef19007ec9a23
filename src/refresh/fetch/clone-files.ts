/**
 * The files of a local copy of a repository, as the platform's `HEAD:path` objects show them:
 * a work tree (a clone, or a partial copy holding only some files: a missing file is absent) or a
 * bare git directory (its HEAD). A copy is hostile like anything from upstream: nothing is followed
 * out of it (a symbolic link is a blob holding its target, as in git, and never a folder to enter).
 */
import { closeSync, existsSync, lstatSync, openSync, readdirSync, readlinkSync, readSync } from "node:fs";
import { join } from "node:path";

export interface FileRead {
  /** The first bytes of the file, at most the limit asked for. */
  bytes: Uint8Array;
  /** The file's whole size. */
  size: number;
}

export interface FolderEntry {
  name: string;
  type: "blob" | "tree";
  /** The git object id, where the copy has one (a git directory). */
  oid?: string;
}

/** One repository's files at the commit its copy holds. */
export interface RepoFiles {
  /** The file at `path` (slash-separated, from the root), or null when there is none. */
  file(path: string, limit: number): FileRead | null;
  /** The entries of the folder at `path`, or null when there is no such folder. */
  folder(path: string): FolderEntry[] | null;
}

const SAFE_PATH = /^(?:[A-Za-z0-9._ -]+\/)*[A-Za-z0-9._ -]+$/;
const safe = (path: string) => SAFE_PATH.test(path) && !path.split("/").some((p) => p === "." || p === "..");

/** A folder on disk: every component is looked at without following a link. */
export function workTreeFiles(root: string): RepoFiles {
  /** The path's status when no component before the last is a link; null when it is absent. */
  const stat = (path: string) => {
    if (path === "") return { at: root, s: lstatSync(root) };
    if (!safe(path)) return null;
    const parts = path.split("/");
    let at = root;
    for (const [i, part] of parts.entries()) {
      at = join(at, part);
      let s: ReturnType<typeof lstatSync> | undefined;
      try {
        s = lstatSync(at);
      } catch {
        return null;
      }
      if (i === parts.length - 1) return { at, s };
      if (!s.isDirectory()) return null;
    }
    return null;
  };
  return {
    file(path, limit) {
      const found = stat(path);
      if (!found) return null;
      const { at, s } = found;
      if (s.isSymbolicLink()) {
        const target = Buffer.from(readlinkSync(at));
        return { bytes: target.subarray(0, limit), size: target.length };
      }
      if (!s.isFile()) return null;
      const bytes = Buffer.alloc(Math.min(limit, s.size));
      const fd = openSync(at, "r");
      try {
        const read = readSync(fd, bytes, 0, bytes.length, 0);
        return { bytes: bytes.subarray(0, read), size: s.size };
      } finally {
        closeSync(fd);
      }
    },
    folder(path) {
      const found = stat(path);
      if (!found?.s.isDirectory()) return null;
      const entries: FolderEntry[] = [];
      for (const e of readdirSync(found.at, { withFileTypes: true })) {
        if (e.name === ".git") continue;
        if (e.isDirectory()) entries.push({ name: e.name, type: "tree" });
        else if (e.isFile() || e.isSymbolicLink()) entries.push({ name: e.name, type: "blob" });
      }
      return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    },
  };
}

function git(gitDir: string, args: string[]): Buffer | null {
  const run = Bun.spawnSync(["git", "--git-dir", gitDir, ...args], { stdout: "pipe", stderr: "ignore" });
  return run.exitCode === 0 ? Buffer.from(run.stdout) : null;
}

/** A git directory's HEAD: one listing of the whole tree, then one read per file asked for. */
export function gitDirFiles(gitDir: string): RepoFiles {
  let listing: Map<string, { type: string; sha: string; size: number }> | null = null;
  const entries = () => {
    if (listing) return listing;
    listing = new Map();
    const out = git(gitDir, ["ls-tree", "-r", "-t", "-l", "-z", "HEAD"]);
    for (const line of (out?.toString("utf8") ?? "").split("\0")) {
      const tab = line.indexOf("\t");
      if (tab < 0) continue;
      const [, type, sha, size] = line.slice(0, tab).split(/\s+/) as [string, string, string, string];
      listing.set(line.slice(tab + 1), { type, sha, size: Number(size) || 0 });
    }
    return listing;
  };
  return {
    file(path, limit) {
      const entry = safe(path) ? entries().get(path) : undefined;
      if (entry?.type !== "blob") return null;
      // Past the limit the text is cut anyway: a huge blob is not read at all.
      if (entry.size > limit) return { bytes: new Uint8Array(0), size: entry.size };
      const bytes = git(gitDir, ["cat-file", "blob", entry.sha]);
      return bytes ? { bytes: bytes.subarray(0, limit), size: entry.size } : null;
    },
    folder(path) {
      if (path !== "" && (!safe(path) || entries().get(path)?.type !== "tree")) return null;
      const prefix = path === "" ? "" : `${path}/`;
      const found: FolderEntry[] = [];
      for (const [name, e] of entries()) {
        if (!name.startsWith(prefix) || name.includes("/", prefix.length)) continue;
        if (e.type === "blob" || e.type === "tree")
          found.push({ name: name.slice(prefix.length), type: e.type, oid: e.sha });
      }
      return found;
    },
  };
}

/** The commit a git directory's HEAD names, or null. */
export function headCommit(gitDir: string): string | null {
  const out = git(gitDir, ["rev-parse", "--verify", "HEAD^{commit}"])?.toString("utf8").trim();
  return out && /^[0-9a-f]{40}$/.test(out) ? out : null;
}

/** True when `dir` is a bare git directory (HEAD, objects/ and refs/ at its top). */
export function isBareGitDir(dir: string): boolean {
  return ["HEAD", "objects", "refs"].every((name) => existsSync(join(dir, name))) && !existsSync(join(dir, ".git"));
}

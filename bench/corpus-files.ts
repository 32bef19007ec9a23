/**
 * The real-manifests corpus (../shared/data/real-manifests) as repositories' files: each kept file
 * under `repos/<owner>/<repo>/` with its body, every other path of `tree/<owner>/<repo>.txt` with an
 * empty one (the fake serves it as a Blob of no text, and lists it in its folder). The same files
 * are served to the refresh by the fake platform and read by the clone reader, so the two compare.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { FolderEntry, RepoFiles } from "../src/refresh/fetch/clone-files";

/** The corpus beside the checkout, or the folder REAL_MANIFESTS names. */
export const CORPUS =
  process.env.REAL_MANIFESTS || join(import.meta.dir, "..", "..", "shared", "data", "real-manifests");

/** Whether the corpus is there (it is never copied into the repository). */
export const corpusPresent = () =>
  existsSync(join(CORPUS, "SOURCES.tsv")) && existsSync(join(CORPUS, "repos")) && existsSync(join(CORPUS, "tree"));

/** Every repository of the corpus, as `SOURCES.tsv` names them. */
export function corpusRepositories(): string[] {
  return readFileSync(join(CORPUS, "SOURCES.tsv"), "utf8")
    .split("\n")
    .slice(1)
    .map((line) => line.split("\t")[0] ?? "")
    .filter((id) => id.includes("/"));
}

/** One repository's files by path: kept bodies, and "" for a path of its tree that was not kept. */
export function corpusFiles(id: string): Record<string, string> {
  const files: Record<string, string> = {};
  const tree = join(CORPUS, "tree", `${id}.txt`);
  const paths = existsSync(tree) ? readFileSync(tree, "utf8").split("\n").filter(Boolean) : [];
  for (const path of paths) {
    const kept = join(CORPUS, "repos", id, path);
    files[path] = existsSync(kept) && statSync(kept).isFile() ? readFileSync(kept, "utf8") : "";
  }
  return files;
}

/** The same files as a copy the clone reader reads. */
export function mapFiles(files: Record<string, string>): RepoFiles {
  const bytes = new Map(Object.entries(files).map(([path, body]) => [path, Buffer.from(body)]));
  const folders = new Map<string, Map<string, FolderEntry["type"]>>();
  for (const path of bytes.keys()) {
    const parts = path.split("/");
    for (let i = 0; i < parts.length; i++) {
      const folder = parts.slice(0, i).join("/");
      const entries = folders.get(folder) ?? new Map<string, FolderEntry["type"]>();
      if (!entries.has(parts[i]!)) entries.set(parts[i]!, i === parts.length - 1 ? "blob" : "tree");
      folders.set(folder, entries);
    }
  }
  return {
    file(path, limit) {
      const body = bytes.get(path);
      return body ? { bytes: body.subarray(0, limit), size: body.length } : null;
    },
    folder(path) {
      const entries = folders.get(path);
      if (!entries) return null;
      return [...entries].map(([name, type]) => ({ name, type })).sort((a, b) => (a.name < b.name ? -1 : 1));
    },
  };
}

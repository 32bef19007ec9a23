/**
 * The manifest reader over a local copy of a repository instead of the platform: the reader's own
 * GraphQL selections (the batch's and the SKILL.md follow-up's) are answered from the copy's files
 * in the shape the platform gives (`{byteSize, isTruncated, text}` blobs, `{entries}` trees), and
 * the same reader, caps, gate and schema check as the refresh's turn them into details. The one
 * place that knows the reader's surface, so the reader can change without its callers changing.
 */
import type { PluginDetails } from "../../catalog/model/details";
import type { DiscoveryRules } from "../discover/discovery-rules";
import { contextFileCount, contextSelection, finishContext } from "../manifests/context-files";
import { finishPluginContexts, pluginFilePaths, pluginFilesSelection } from "../manifests/plugin-context";
import { finishListed, LISTED_PER_QUERY, listedAsks, listedSelection } from "../manifests/plugin-listed";
import { ManifestReader, manifestSelection, partsSelection, skillSelection } from "../manifests/reader";
import type { GateCounts } from "../upstream/gate";
import type { RepoFiles } from "./clone-files";

/** Text kept of a blob: past it the text is cut and marked truncated, as the platform marks a large blob. */
const TEXT_LIMIT = 4 * 1024 * 1024;

export interface AskedObject {
  alias: string;
  /** The path after `HEAD:`. */
  path: string;
  kind: "Blob" | "Tree";
  /** Levels of entries asked (`entries { … object { ... on Tree { entries … } } }`): 1 for a plain listing. */
  depth: number;
}

const OBJECT = /(\w+): object\(expression: ("(?:[^"\\]|\\.)*")\) \{ \.\.\. on (Blob|Tree) \{/g;

/** The `alias: object(expression: "HEAD:path") { ... on Blob|Tree` fields of a selection. */
export function askedObjects(selection: string): AskedObject[] {
  const asked: AskedObject[] = [];
  const matches = [...selection.matchAll(OBJECT)];
  for (const [i, match] of matches.entries()) {
    const expression = JSON.parse(match[2]!) as string;
    if (!expression.startsWith("HEAD:")) continue;
    const field = selection.slice(match.index, matches[i + 1]?.index ?? selection.length);
    const depth = Math.max(1, field.split("entries {").length - 1);
    asked.push({ alias: match[1]!, path: expression.slice(5), kind: match[3] as "Blob" | "Tree", depth });
  }
  return asked;
}

const decoder = new TextDecoder("utf-8");

/** What `... on Blob { byteSize isTruncated text }` gives: text null for a binary file, `{}` for a folder. */
function blob(files: RepoFiles, path: string): Record<string, unknown> | null {
  const read = files.file(path, TEXT_LIMIT);
  if (read === null) return files.folder(path) === null ? null : {};
  const binary = read.bytes.includes(0);
  return {
    byteSize: read.size,
    isTruncated: read.size > read.bytes.length,
    text: binary ? null : decoder.decode(read.bytes),
  };
}

/**
 * What `... on Tree { entries { name type oid } }` gives (`{}` for a file), each folder entry
 * listed again under `object` while `depth` asks for more levels. A copy without object ids
 * (a work tree) answers no `oid`: its skills have no tree id.
 */
function tree(files: RepoFiles, path: string, depth: number): Record<string, unknown> | null {
  const entries = files.folder(path);
  if (entries === null) return files.file(path, 0) === null ? null : {};
  return {
    entries: entries.map((e) => ({
      name: e.name,
      type: e.type,
      ...(e.oid ? { oid: e.oid } : {}),
      ...(depth > 1
        ? { object: e.type === "tree" ? tree(files, path === "" ? e.name : `${path}/${e.name}`, depth - 1) : {} }
        : {}),
    })),
  };
}

/**
 * A repository field as the platform would answer `selection` for the copy. The platform facts
 * the reader also asks for (fork parent, latest release) are not in a copy: not a fork, no release.
 */
export function answerSelection(files: RepoFiles, selection: string): Record<string, unknown> {
  const asked = askedObjects(selection);
  if (asked.length === 0 && selection.includes("object("))
    throw new Error("the manifest selection's shape is not one this adapter reads");
  const node: Record<string, unknown> = { isFork: false, parent: null, latestRelease: null };
  for (const { alias, path, kind, depth } of asked)
    node[alias] = kind === "Blob" ? blob(files, path) : tree(files, path, depth);
  return node;
}

/** Reads copies with one reader: refusals are counted in `counts`, as in a refresh. */
export function cloneReader(
  counts: GateCounts,
  rules: DiscoveryRules["evidence"],
): (files: RepoFiles, id: string) => PluginDetails | null {
  const manifests = new ManifestReader(counts, rules);
  return (files, id) => {
    const reading = manifests.read(answerSelection(files, manifestSelection()), id);
    let node: Record<string, unknown> | null = null;
    const more = reading.skillDirs.length + reading.skillLists.length + reading.pluginFolders.length;
    if (more > 0 || contextFileCount(reading.context) > 0) {
      const selection = [
        skillSelection(reading.skillDirs, reading.skillLists),
        contextSelection(reading.context),
        partsSelection(reading.pluginFolders),
      ].filter(Boolean);
      node = answerSelection(files, selection.join("\n  "));
      const objects = new Map(reading.skillDirs.map((dir, k) => [dir, node![`k${k}`]]));
      const lists = new Map(reading.skillLists.map((path, k) => [path, node![`l${k}`]]));
      if (reading.skillDirs.length > 0 || reading.skillLists.length > 0)
        reading.details = manifests.finishSkills(reading, { objects, lists }, id);
      manifests.finishPlugins(reading, node, id);
      const asks = listedAsks(reading.pluginFolders).slice(0, LISTED_PER_QUERY);
      if (asks.length > 0)
        finishListed(manifests.gate, reading, answerSelection(files, listedSelection(asks)), asks, id);
      const paths = pluginFilePaths(reading);
      const second = paths.length > 0 ? answerSelection(files, pluginFilesSelection(paths)) : null;
      finishPluginContexts(manifests.gate, reading, node, second, paths, id);
    }
    finishContext(reading, node);
    return manifests.checked(reading.details, id);
  };
}

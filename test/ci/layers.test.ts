/**
 * The folders are the architecture: each one imports only those below it, and no file imports
 * itself back through another. A new circle or an import that runs back up fails here.
 */
import { expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";

const SRC = join(import.meta.dir, "..", "..", "src");

/** Lowest first: a file may import its own folder and the folders listed before its own. */
export const LAYERS: readonly (readonly string[])[] = [
  ["base"],
  ["settings.ts"],
  ["catalog/model"],
  ["catalog/search"],
  ["catalog/snapshot"],
  ["refresh"],
  ["config-values.ts"],
  ["config.ts"],
  ["http"],
  ["cluster"],
  ["routes", "web", "market"],
  ["scheduler"],
  ["app.ts"],
  ["lifecycle.ts"],
  ["index.ts"],
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** The room of a file: its layer's entry (`catalog/search`, `http`, `app.ts`). */
function roomOf(file: string): string {
  const rel = relative(SRC, file);
  const known = LAYERS.flat().filter((room) => rel === room || rel.startsWith(`${room}/`));
  const room = known.sort((a, b) => b.length - a.length)[0];
  if (!room) throw new Error(`${rel} is in no layer: add its folder to LAYERS`);
  return room;
}
const rank = (room: string) => LAYERS.findIndex((layer) => layer.includes(room));

const IMPORT = /(?:from\s+|import\s*\(\s*)"(\.{1,2}\/[^"]+)"/g;
/** A worker's entry file: started, not imported, so it may import the file that starts it. */
const WORKER = /new URL\(\s*"(\.{1,2}\/[^"]+)"/g;

function importsOf(file: string, pattern = IMPORT): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(pattern)].map((m) => {
    const target = normalize(join(dirname(file), m[1]!));
    if (/\.tsx?$/.test(target)) return target;
    return existsSync(`${target}.tsx`) ? `${target}.tsx` : `${target}.ts`;
  });
}

const files = sourceFiles(SRC);
const graph = new Map(files.map((file) => [file, importsOf(file)]));

test("every import and worker entry names a file of the tree", () => {
  const missing = files.flatMap((from) =>
    [...importsOf(from), ...importsOf(from, WORKER)].filter((t) => !graph.has(t)).map((t) => `${from} -> ${t}`),
  );
  expect(missing).toEqual([]);
});

test("imports run down the layers, never back up", () => {
  const upward = [...graph].flatMap(([from, to]) =>
    to
      .filter((t) => roomOf(t) !== roomOf(from) && rank(roomOf(t)) >= rank(roomOf(from)))
      .map((t) => `${relative(SRC, from)} -> ${relative(SRC, t)}`),
  );
  expect(upward).toEqual([]);
});

test("no file imports itself back through others", () => {
  const state = new Map<string, "open" | "done">();
  const circles: string[] = [];
  const visit = (file: string, path: string[]) => {
    if (state.get(file) === "done") return;
    if (state.get(file) === "open") {
      circles.push([...path.slice(path.indexOf(file)), file].map((f) => relative(SRC, f)).join(" -> "));
      return;
    }
    state.set(file, "open");
    for (const next of graph.get(file) ?? []) visit(next, [...path, file]);
    state.set(file, "done");
  };
  for (const file of files) visit(file, []);
  expect(circles).toEqual([]);
});

test("a route imports no other route: what routes share lives in http/", () => {
  const routes = join(SRC, "routes");
  const crossing = files
    .filter((file) => file.startsWith(`${routes}/`))
    .flatMap((file) =>
      graph
        .get(file)!
        .filter((t) => t.startsWith(`${routes}/`) && dirname(t) !== dirname(file))
        .map((t) => `${relative(SRC, file)} -> ${relative(SRC, t)}`),
    );
  expect(files.some((file) => file.startsWith(`${routes}/`))).toBe(true);
  expect(crossing).toEqual([]);
});

test("every file name in src/ is kebab-case and names one file (index files aside)", () => {
  const all = sourceFiles(SRC).map((file) => relative(SRC, file));
  const stem = (path: string) =>
    path
      .split("/")
      .pop()!
      .replace(/\.[a-z]+$/, "");
  expect(all.filter((path) => !/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(stem(path)))).toEqual([]);
  const byStem = new Map<string, string[]>();
  for (const path of all) if (stem(path) !== "index") byStem.set(stem(path), [...(byStem.get(stem(path)) ?? []), path]);
  expect([...byStem.values()].filter((paths) => paths.length > 1)).toEqual([]);
});

test("only the files at the root of src/refresh/ take the run's state", () => {
  const takers = files.filter((file) =>
    /import type \{[^}]*\bRun\b[^}]*\} from "[./]+run-state"/.test(readFileSync(file, "utf8")),
  );
  const below = takers.map((file) => relative(join(SRC, "refresh"), file)).filter((path) => path.includes("/"));
  expect(takers.length).toBeGreaterThan(3);
  expect(below).toEqual([]);
});

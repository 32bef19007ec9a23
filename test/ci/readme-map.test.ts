/** README's map of the code names every folder of the tree, and nothing that is not there. */
import { expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "..", "..");
const TOP = ["bench", "db", "deploy", "docs", "examples", "jobs", "scripts", "src", "test"];

function folders(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = `${dir}/${name}`;
    return statSync(join(ROOT, path)).isDirectory() ? [`${path}/`, ...folders(path)] : [];
  });
}

function mapSection(): string {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const start = readme.indexOf("\n## Map of the code\n");
  expect(start).toBeGreaterThan(-1);
  const end = readme.indexOf("\n## ", start + 1);
  return readme.slice(start, end === -1 ? undefined : end);
}

test("every folder of src/ and every top-level folder is on the map", () => {
  const named = new Set([...mapSection().matchAll(/`([a-z][a-z0-9./-]*\/)`/g)].map((m) => m[1]!));
  const expected = [...TOP.filter((dir) => existsSync(join(ROOT, dir))).map((dir) => `${dir}/`), ...folders("src")];
  expect(expected.filter((folder) => !named.has(folder))).toEqual([]);
});

test("every path the map names is in the tree", () => {
  const paths = [...mapSection().matchAll(/`((?:src|test|bench|jobs|db|docs|deploy|scripts)\/[A-Za-z0-9./-]*)`/g)];
  expect(paths.length).toBeGreaterThan(10);
  expect(paths.map((m) => m[1]!).filter((path) => !existsSync(join(ROOT, path)))).toEqual([]);
});

/** Rows of a table a blank line cut from its header: Markdown renders them as text. */
function headlessRows(text: string): number[] {
  const lines = text.split("\n");
  return lines.flatMap((line, i) => {
    const opens = line.startsWith("|") && (i === 0 || !lines[i - 1]!.startsWith("|"));
    return opens && !/^\|[-:| ]+\|$/.test(lines[i + 1] ?? "") ? [i + 1] : [];
  });
}

test("every table of the README and the docs renders whole: no row is cut from its header", () => {
  const documents = [
    "README.md",
    "bench/README.md",
    "db/README.md",
    ...readdirSync(join(ROOT, "docs")).map((f) => `docs/${f}`),
  ];
  const cut = documents
    .filter((path) => path.endsWith(".md"))
    .flatMap((path) => headlessRows(readFileSync(join(ROOT, path), "utf8")).map((line) => `${path}:${line}`));
  expect(cut).toEqual([]);
  // The check finds what it is for: the map as it once was, cut by a blank line.
  expect(headlessRows("| a | b |\n|---|---|\n| 1 | 2 |\n\n| 3 | 4 |\n")).toEqual([5]);
});

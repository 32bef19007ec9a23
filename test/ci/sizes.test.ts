/**
 * Files and functions a reader can hold in mind, in everything that runs (the service, its jobs,
 * benches and scripts; tests are not held to it): no source file over 300 lines, no function or
 * top-level block over 80.
 */
import { expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

const ROOT = join(import.meta.dir, "..", "..");
const FOLDERS = ["src", "jobs", "bench", "scripts"];
/** What the benches write when they run: ignored by git, no source. */
const OUTPUT = join(ROOT, "bench", "out");
const MAX_FILE_LINES = 300;
const MAX_FUNCTION_LINES = 80;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return path === OUTPUT ? [] : sourceFiles(path);
    return /\.(tsx?|js)$/.test(name) ? [path] : [];
  });
}

const files = FOLDERS.flatMap((folder) => sourceFiles(join(ROOT, folder))).map((path) => ({
  path,
  text: readFileSync(path, "utf8"),
}));

function scriptKind(path: string): ts.ScriptKind {
  if (path.endsWith(".js")) return ts.ScriptKind.JS;
  return path.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
}

/** A statement of a module's own body that runs code (a loop, a branch, a call): a function in all but name. */
function isTopLevelBlock(statement: ts.Statement): boolean {
  return (
    !ts.isDeclarationStatement(statement) && !ts.isVariableStatement(statement) && !ts.isImportDeclaration(statement)
  );
}

test(`no source file is over ${MAX_FILE_LINES} lines`, () => {
  const long = files
    .map(({ path, text }) => [relative(ROOT, path), text.split("\n").length - 1] as const)
    .filter(([, lines]) => lines > MAX_FILE_LINES);
  expect(files.filter(({ path }) => path.includes(`${ROOT}/bench/`)).length).toBeGreaterThan(20);
  expect(files.filter(({ path }) => path.includes(`${ROOT}/jobs/`)).length).toBeGreaterThan(0);
  expect(files.length).toBeGreaterThan(50);
  expect(long).toEqual([]);
});

test(`no function or top-level block is over ${MAX_FUNCTION_LINES} lines`, () => {
  const long: string[] = [];
  for (const { path, text } of files) {
    const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, scriptKind(path));
    const measure = (node: ts.Node) => {
      const first = source.getLineAndCharacterOfPosition(node.getStart()).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      if (last - first + 1 > MAX_FUNCTION_LINES) long.push(`${relative(ROOT, path)}:${first + 1}`);
    };
    const visit = (node: ts.Node) => {
      if (ts.isFunctionLike(node) && "body" in node && node.body) measure(node);
      ts.forEachChild(node, visit);
    };
    source.statements.filter(isTopLevelBlock).forEach(measure);
    visit(source);
  }
  // A script wrapped in one call is both a top-level block and a function: named once.
  expect([...new Set(long)]).toEqual([]);
});

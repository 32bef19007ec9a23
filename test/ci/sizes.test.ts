/** Files and functions a reader can hold in mind: no source file over 300 lines, no function over 80. */
import { expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

const SRC = join(import.meta.dir, "..", "..", "src");
const MAX_FILE_LINES = 300;
const MAX_FUNCTION_LINES = 80;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

const files = sourceFiles(SRC).map((path) => ({ path, text: readFileSync(path, "utf8") }));

test(`no source file is over ${MAX_FILE_LINES} lines`, () => {
  const long = files
    .map(({ path, text }) => [relative(SRC, path), text.split("\n").length - 1] as const)
    .filter(([, lines]) => lines > MAX_FILE_LINES);
  expect(files.length).toBeGreaterThan(50);
  expect(long).toEqual([]);
});

test(`no function is over ${MAX_FUNCTION_LINES} lines`, () => {
  const long: string[] = [];
  for (const { path, text } of files) {
    const kind = path.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
    const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind);
    const visit = (node: ts.Node) => {
      if (ts.isFunctionLike(node) && "body" in node && node.body) {
        const first = source.getLineAndCharacterOfPosition(node.getStart()).line;
        const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
        if (last - first + 1 > MAX_FUNCTION_LINES) long.push(`${relative(SRC, path)}:${first + 1}`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  expect(long).toEqual([]);
});

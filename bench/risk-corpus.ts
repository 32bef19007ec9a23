/**
 * Runs the risk engine (src/refresh/risk/) over a local corpus of real repositories' files
 * (`<dir>/<owner>/<repo>/…`, as collected for measurement; never committed) and prints the notes
 * per rule and every note with its file and line, to be read and classified by hand.
 *
 *   bun run bench/risk-corpus.ts /work/corpus/repos [--rule <rule>] [--all]
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { riskNotes } from "../src/refresh/risk/index";

/** The files the refresh reads notes from (and the hook scripts a hooks.json names). */
const READ =
  /(?:^|\/)(?:SKILL\.md|hooks\.json|\.mcp\.json|server\.json|plugin\.json)$|(?:^|\/)hooks\/[^/]+\.(?:sh|py|js|mjs|cjs|ts)$/;

const [root = "/work/corpus/repos", ...flags] = process.argv.slice(2);
const only = flags.includes("--rule") ? flags[flags.indexOf("--rule") + 1] : null;
const counts = new Map<string, number>();
let files = 0;
let bytes = 0;
const started = performance.now();

function* walk(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* walk(path);
    else yield path;
  }
}

for (const path of walk(root)) {
  const rel = relative(root, path);
  const inRepo = rel.split("/").slice(2).join("/");
  if (!READ.test(inRepo)) continue;
  const text = readFileSync(path, "utf8");
  if (text.length > 256 * 1024) continue;
  files++;
  bytes += text.length;
  for (const note of riskNotes(inRepo, text)) {
    counts.set(note.rule, (counts.get(note.rule) ?? 0) + 1);
    if (only === null || only === note.rule)
      if (flags.includes("--all") || only !== null)
        console.log(`${note.rule}\t${rel.split("/").slice(0, 2).join("/")}/${note.file}:${note.line}\t${note.excerpt}`);
  }
}
const ms = Math.round(performance.now() - started);
console.log(`files ${files}, ${(bytes / 1e6).toFixed(1)} MB, ${ms} ms`);
for (const [rule, n] of [...counts].sort((a, b) => b[1] - a[1])) console.log(`${rule}\t${n}`);

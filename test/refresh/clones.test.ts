/**
 * `npm run default:depth`: the job reads a folder of local copies (work trees, partial copies and
 * bare git directories) with the refresh's own manifest reader, writes db/depth.json, and the
 * default snapshot built from that db/ serves the details over HTTP. The copies hold the same
 * files as the refresh's fixtures on the fake platform, and must give the same details.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { type DepthFile, readDepthFile } from "../../src/catalog/model/depth";
import { defaultSnapshotInput } from "../../src/catalog/snapshot/publish";
import type { RepoFiles } from "../../src/refresh/fetch/clone-files";
import { answerSelection, askedObjects } from "../../src/refresh/fetch/clones";
import { MANIFEST_FILES, MANIFEST_TREES, manifestSelection } from "../../src/refresh/manifests/reader";
import { marketplaceManifest } from "../fakes/github-repos";
import { FIXTURES } from "../fakes/manifest-repos";
import { startServer, type TestServer, tempDir } from "../helpers";

const ROOT = join(import.meta.dir, "..", "..");
const EDITORS = ["categories.json", "curated.json", "overrides.json", "synonyms.json", "discovery.json"];
const COMMIT = "0123456789abcdef0123456789abcdef01234567";
const skillMd = (name: string) => `---\nname: ${name}\ndescription: The ${name} skill\n---\n\n# ${name}\n`;

let tmp: ReturnType<typeof tempDir>;
let db: string;
let clones: string;

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

function facts(id: string, stars = 100) {
  return {
    full_name: id,
    description: `The ${id} repository`,
    homepage: null,
    stars,
    forks: 1,
    language: "TypeScript",
    license: "MIT",
    archived: false,
    created_at: "2025-01-01T00:00:00Z",
    pushed_at: "2026-08-01T00:00:00Z",
    topics: [],
  };
}

function git(cwd: string, ...args: string[]): string {
  const run = Bun.spawnSync(["git", ...args], {
    cwd,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: cwd,
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@example.test",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@example.test",
    },
  });
  if (run.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${run.stderr.toString()}`);
  return run.stdout.toString().trim();
}

/** A bare git directory linked at `<clones>/gitco/Bare-Pack.git`, whose HEAD holds a root SKILL.md and a command. */
function bareRepository(): string {
  const work = join(tmp.dir, "work");
  write(join(work, "SKILL.md"), skillMd("bare-skill"));
  write(join(work, "commands", "hello.md"), "# hello\n");
  write(join(work, ".claude", "skills", "bare-extra", "SKILL.md"), skillMd("bare-extra"));
  git(work, "init", "-q", "-b", "main");
  git(work, "add", ".");
  git(work, "commit", "-q", "-m", "files");
  // Kept elsewhere (as a fetched mirror is) and linked into the folder.
  git(tmp.dir, "clone", "-q", "--bare", work, join(tmp.dir, "mirror.git"));
  mkdirSync(join(clones, "gitco"), { recursive: true });
  symlinkSync(join(tmp.dir, "mirror.git"), join(clones, "gitco", "Bare-Pack.git"));
  return git(work, "rev-parse", "HEAD");
}

function runJob(...args: string[]): { code: number; stdout: string; stderr: string } {
  const run = Bun.spawnSync([process.execPath, "run", "jobs/read-clones.ts", clones, "--db", db, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" },
  });
  return { code: run.exitCode ?? -1, stdout: run.stdout.toString(), stderr: run.stderr.toString() };
}

let bareCommit: string;
let depth: DepthFile;
let server: TestServer;

beforeAll(() => {
  tmp = tempDir();
  db = join(tmp.dir, "db");
  clones = join(tmp.dir, "clones");
  mkdirSync(db, { recursive: true });
  for (const file of EDITORS) copyFileSync(join(ROOT, "db", file), join(db, file));
  const ids = [
    ...Object.values(FIXTURES).map((f) => f.seed.full_name),
    "linkco/escape",
    "gitco/Bare-Pack",
    "nocopy/none",
  ];
  write(
    join(db, "plugins.json"),
    JSON.stringify({ snapshot_at: "2026-08-22T00:00:00.000Z", plugins: ids.map((id) => facts(id)) }),
  );
  for (const { seed } of Object.values(FIXTURES)) {
    const files = { ...seed.files };
    if (seed.marketplace)
      files[".claude-plugin/marketplace.json"] ??= marketplaceManifest(seed.full_name.split("/")[1]!, ["./"]);
    for (const [path, text] of Object.entries(files)) write(join(clones, seed.full_name, path), text);
  }
  const market = FIXTURES.marketplace!.seed.full_name;
  write(
    join(clones, market, ".corpus.json"),
    JSON.stringify({ repo: market, commit: COMMIT, read_at: "2026-11-27T14:45:49+00:00" }),
  );
  // A copy whose skill folder is a link out of it: the link is never followed.
  write(join(tmp.dir, "outside", "SKILL.md"), skillMd("leaked"));
  write(join(tmp.dir, "outside", "plugin.json"), JSON.stringify({ name: "leaked" }));
  write(join(clones, "linkco", "escape", "skills", "kept", "SKILL.md"), skillMd("kept"));
  symlinkSync(join(tmp.dir, "outside"), join(clones, "linkco", "escape", "skills", "leak"));
  symlinkSync(join(tmp.dir, "outside"), join(clones, "linkco", "escape", ".claude-plugin"));
  bareCommit = bareRepository();
  const run = runJob();
  if (run.code !== 0) throw new Error(`read-clones failed: ${run.stderr}`);
  depth = readDepthFile(db);
  server = startServer(defaultSnapshotInput(db));
});

afterAll(async () => {
  await server?.stop();
  tmp?.cleanup();
});

/** The expected contents as a work tree gives them: a copy without git objects has no tree ids. */
function withoutTrees(contents: unknown): unknown {
  const c = contents as { skills?: Array<Record<string, unknown>> } | null;
  if (!c?.skills) return contents;
  return { ...c, skills: c.skills.map(({ tree: _, ...skill }) => skill) };
}

describe("npm run default:depth", () => {
  test("the adapter answers every file and folder the reader's selection asks for", () => {
    const paths = askedObjects(manifestSelection()).map((a) => `${a.kind} ${a.path}`);
    for (const path of Object.values(MANIFEST_FILES)) expect(paths).toContain(`Blob ${path}`);
    for (const path of Object.values(MANIFEST_TREES)) expect(paths).toContain(`Tree ${path}`);
  });

  test("files answer as the platform's blobs: size, truncation, binary, a folder asked as a file", () => {
    const text = new TextEncoder().encode('{"name":"x"}');
    const files: RepoFiles = {
      file: (path) =>
        path === "server.json"
          ? { bytes: text, size: text.length }
          : path === "package.json"
            ? { bytes: text, size: 10_000_000 }
            : path === "SKILL.md"
              ? { bytes: new Uint8Array([0x47, 0, 0x49]), size: 3 }
              : null,
      folder: (path) => (path === ".mcp.json" || path === "skills" ? [{ name: "a", type: "tree" }] : null),
    };
    const selection = [
      'a: object(expression: "HEAD:server.json") { ... on Blob { byteSize isTruncated text } }',
      'b: object(expression: "HEAD:package.json") { ... on Blob { byteSize isTruncated text } }',
      'c: object(expression: "HEAD:SKILL.md") { ... on Blob { byteSize isTruncated text } }',
      'd: object(expression: "HEAD:.mcp.json") { ... on Blob { byteSize isTruncated text } }',
      'e: object(expression: "HEAD:skills") { ... on Tree { entries { name type } } }',
      'f: object(expression: "HEAD:server.json") { ... on Tree { entries { name type } } }',
      'g: object(expression: "HEAD:absent.json") { ... on Blob { byteSize isTruncated text } }',
    ].join("\n");
    expect(answerSelection(files, selection)).toEqual({
      isFork: false,
      parent: null,
      latestRelease: null,
      a: { byteSize: text.length, isTruncated: false, text: '{"name":"x"}' },
      b: { byteSize: 10_000_000, isTruncated: true, text: '{"name":"x"}' },
      c: { byteSize: 3, isTruncated: false, text: null },
      d: {},
      e: { entries: [{ name: "a", type: "tree" }] },
      f: {},
      g: null,
    });
  });

  test("a copy gives the details the refresh derives from the same files on the platform", () => {
    for (const [kind, { seed, expected }] of Object.entries(FIXTURES)) {
      const entry = depth.plugins[seed.full_name];
      expect({ kind, read: entry !== undefined }).toEqual({ kind, read: true });
      const { contents, install, works_with } = entry!.details;
      expect({ kind, contents, install, works_with }).toEqual({
        kind,
        contents: withoutTrees(expected.contents) as never,
        install: expected.install as never,
        works_with: expected.works_with as never,
      });
    }
  });

  test("each entry keeps the commit and the date read; a repository without a copy has none", () => {
    const market = depth.plugins[FIXTURES.marketplace!.seed.full_name]!;
    expect(market.commit).toBe(COMMIT);
    expect(market.read_at).toBe("2026-11-27T14:45:49Z");
    const bare = depth.plugins["gitco/Bare-Pack"]!;
    expect(bare.commit).toBe(bareCommit);
    expect(bare.details.contents?.skills.map((s) => s.name)).toEqual(["bare-skill", "bare-extra"]);
    // A git directory gives each skill folder's real tree id; the root SKILL.md is all its installer reads.
    const extra = bare.details.contents!.skills[1]!;
    expect(extra.tree).toBe(git(join(tmp.dir, "mirror.git"), "rev-parse", "HEAD:.claude/skills/bare-extra"));
    expect(extra.no_install).toBe("the installer reads only this repository's root SKILL.md");
    expect(bare.details.contents?.commands).toEqual(["hello"]);
    expect(depth.plugins["nocopy/none"]).toBeUndefined();
  });

  test("a link out of the copy is not followed", () => {
    const linked = depth.plugins["linkco/escape"]!.details;
    expect(linked.contents?.skills.map((s) => s.name)).toEqual(["kept"]);
    expect(JSON.stringify(linked)).not.toContain("leaked");
    expect(linked.works_with).not.toContain("claude-code");
  });

  test("the default snapshot built from that db/ serves the details: has=, include=, the plugin page", async () => {
    const withSkills = await server.json("/api/v1/plugins?has=skills&pageSize=100");
    const expectedSkills = Object.entries(depth.plugins).filter(
      ([, e]) => (e.details.contents?.counts.skills ?? 0) > 0,
    );
    expect(withSkills.data.total).toBe(expectedSkills.length);
    expect(withSkills.data.items.map((p: { id: string }) => p.id)).toContain("gitco/Bare-Pack");
    const withInstall = await server.json("/api/v1/plugins?has=install&pageSize=100");
    expect(withInstall.data.total).toBe(Object.values(depth.plugins).filter((e) => e.details.install.length).length);

    const pack = FIXTURES.skillPack!;
    const one = await server.json(`/api/v1/plugins/${pack.seed.full_name}?include=contents,install`);
    expect(one.data.plugin.contents).toEqual(withoutTrees(pack.expected.contents));
    expect(one.data.plugin.install).toEqual(pack.expected.install);

    const { seed, expected } = FIXTURES.marketplace!;
    const page = await (await server.get(`/plugin/${seed.full_name}`)).text();
    const commands = (expected.install as Array<{ command?: string }>).flatMap((i) => (i.command ? [i.command] : []));
    expect(commands.length).toBeGreaterThan(1);
    for (const command of commands) expect(page).toContain(Bun.escapeHTML(command));
  });

  test("entries of repositories without a copy are kept, unless --fresh", () => {
    rmSync(join(clones, "gitco"), { recursive: true });
    expect(runJob().code).toBe(0);
    expect(readDepthFile(db).plugins["gitco/Bare-Pack"]?.commit).toBe(bareCommit);
    expect(runJob("--fresh").code).toBe(0);
    expect(readDepthFile(db).plugins["gitco/Bare-Pack"]).toBeUndefined();
    expect(
      JSON.parse(readFileSync(join(db, "depth.json"), "utf8")).plugins[FIXTURES.marketplace!.seed.full_name],
    ).toBeDefined();
  });

  test("without a folder it says how to run it", () => {
    const run = Bun.spawnSync([process.execPath, "run", "jobs/read-clones.ts"], { cwd: ROOT });
    expect(run.exitCode).toBe(2);
    expect(run.stderr.toString()).toContain("npm run default:depth -- <folder of clones>");
  });
});

/** Builders for refresh tests: a temp data dir, a published snapshot, the fake platform and the real app. */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../../src/app";
import { toRecords } from "../../src/catalog/model/classify";
import { loadEditorial } from "../../src/catalog/model/editorial";
import type { PluginRecord } from "../../src/catalog/model/types";
import { publishSnapshot } from "../../src/catalog/snapshot/publish";
import { CatalogStore } from "../../src/catalog/snapshot/store";
import type { DiscoveryRules } from "../../src/refresh/discover/discovery-rules";
import { type RefreshOptions, type RefreshResult, runRefresh } from "../../src/refresh/run";
import { UpstreamGate } from "../../src/refresh/upstream/gate";
import { fromRest } from "../../src/refresh/upstream/repo-facts";
import { FakeGitHub, type FakeOptions } from "../fakes/github";
import { restBody } from "../fakes/github-repos";
import { testConfig } from "../helpers";
import { plugin } from "../records";

export const OLD_SNAPSHOT_AT = "2026-08-22T00:00:00.000Z";
export const CATEGORY_IDS = ["mcp", "skills", "other"];

const CATEGORIES = [
  {
    id: "mcp",
    name: "MCP servers",
    name_zh: "MCP 服务器",
    description: "MCP servers.",
    topics: ["mcp-server", "mcp"],
    keywords: ["mcp server"],
    hints: ["mcp-server"],
  },
  {
    id: "skills",
    name: "Skills",
    name_zh: "技能",
    description: "Skill packs.",
    topics: ["agent-skills"],
    keywords: ["skills"],
    hints: [],
  },
  { id: "other", name: "Other", name_zh: "其他", description: "Everything else.", topics: [], keywords: [], hints: [] },
];

type Noted<T> = Omit<T, "note"> & { note?: string };

/** The evidence of the tests' rules: the topics the tests search for, and the manifests. */
export const TEST_EVIDENCE: DiscoveryRules["evidence"] = {
  topics: ["mcp-server", "agent-skills", "claude-code-plugin"],
  files: [
    { path: ".claude-plugin/plugin.json", note: "a plugin manifest" },
    { path: ".claude-plugin/marketplace.json", note: "a marketplace manifest" },
    { path: "server.json", contains: "modelcontextprotocol.io/schemas", note: "an MCP server manifest" },
    { path: "SKILL.md", note: "a skill" },
  ],
  dependencies: [
    { file: "package.json", name: "@modelcontextprotocol/sdk", note: "the MCP SDK" },
    { file: "pyproject.toml", name: "mcp", note: "the MCP SDK for Python" },
    { file: "requirements.txt", name: "fastmcp", note: "FastMCP" },
    { file: "go.mod", name: "github.com/mark3labs/mcp-go", note: "mcp-go" },
    { file: "Cargo.toml", name: "rmcp", note: "the Rust MCP SDK" },
  ],
  folders: [
    { path: "skills", note: "skill folders" },
    { path: ".claude/commands", note: "project commands" },
  ],
};

export interface DataFiles {
  searches?: Array<Noted<DiscoveryRules["searches"][number]>>;
  code?: Array<Noted<DiscoveryRules["code"][number]>>;
  marketplaces?: Array<Noted<DiscoveryRules["marketplaces"][number]>>;
  lists?: Array<Noted<DiscoveryRules["lists"][number]>>;
  evidence?: DiscoveryRules["evidence"];
  repositories?: string[];
  overrides?: Record<string, { exclude?: boolean; category?: string; description_zh?: string; repo_id?: number }>;
  curated?: Array<{ id: string; description_zh: string; repo_id?: number }>;
  fullEveryDays?: number;
}

/** A published plugin record, as an earlier snapshot holds it. */
export function record(id: string, fields: Partial<PluginRecord> = {}): PluginRecord {
  const [, name] = id.split("/") as [string, string];
  return plugin(id, {
    description: `${name} for coding agents`,
    category: "other",
    stars: 10,
    forks: 1,
    language: "TypeScript",
    license: "MIT",
    created_at: "2025-03-01T10:00:00Z",
    pushed_at: "2026-08-01T10:00:00Z",
    first_seen_at: OLD_SNAPSHOT_AT,
    ...fields,
  });
}

export class Env {
  readonly dir = mkdtempSync(join(tmpdir(), "refresh-test-"));
  readonly dataDir = join(this.dir, "data");
  readonly databasePath = join(this.dir, "catalog.sqlite");
  readonly github: FakeGitHub;
  private stops: Array<() => Promise<void> | void> = [];

  constructor(data: DataFiles = {}, fake: FakeOptions = {}) {
    this.github = new FakeGitHub(fake);
    this.writeData(data);
  }

  /** Writes the data files into `dir`, the test's data dir by default. */
  writeData(data: DataFiles, dir = this.dataDir): void {
    mkdirSync(dir, { recursive: true });
    const write = (name: string, value: unknown) => writeFileSync(join(dir, name), JSON.stringify(value));
    write("categories.json", { categories: CATEGORIES });
    write("curated.json", { plugins: data.curated ?? [] });
    write("overrides.json", { overrides: data.overrides ?? {} });
    const noted = <T extends { note?: string }>(rules: T[] = []) => rules.map((r) => ({ note: "a test rule", ...r }));
    write("discovery.json", {
      fullEveryDays: data.fullEveryDays ?? 7,
      evidence: data.evidence ?? TEST_EVIDENCE,
      searches: noted(data.searches),
      code: noted(data.code),
      marketplaces: noted(data.marketplaces),
      lists: noted(data.lists),
      repositories: data.repositories ?? [],
    });
  }

  /** Publishes the snapshot a refresh starts from. */
  publish(records: PluginRecord[], snapshotAt = OLD_SNAPSHOT_AT): void {
    publishSnapshot(this.databasePath, { snapshotAt, plugins: records, categoryIds: CATEGORY_IDS });
  }

  /** The fake's repositories, published exactly as they are now: the usual starting point. */
  publishFake(snapshotAt = OLD_SNAPSHOT_AT): void {
    const gate = new UpstreamGate();
    const facts = this.github.repos.all().map((r) => gate.facts(fromRest(restBody(r, this.github.url)))!);
    this.publish(
      toRecords(facts, loadEditorial(this.dataDir), () => ({ firstSeenAt: snapshotAt })),
      snapshotAt,
    );
  }

  options(extra: Partial<RefreshOptions> = {}): RefreshOptions {
    return {
      databasePath: this.databasePath,
      apiUrl: this.github.url,
      token: "test-token",
      maxDrop: 0.1,
      dataDir: this.dataDir,
      maxWaitSeconds: 0,
      pacing: { retryAfterBaseMs: 1 },
      ...extra,
    };
  }

  refresh(extra: Partial<RefreshOptions> = {}): Promise<RefreshResult> {
    return runRefresh(this.options(extra));
  }

  bytes(): Buffer {
    return readFileSync(this.databasePath);
  }

  /** The real app over a real store of the database file, on 127.0.0.1, without a rate limit. */
  serve(): { url: string; store: CatalogStore; app: ReturnType<typeof createApp> } {
    const store = new CatalogStore(this.databasePath, { checkIntervalMs: 0 });
    const app = createApp({
      store,
      config: testConfig(),
    });
    app.listen({ port: 0, hostname: "127.0.0.1" });
    this.stops.push(async () => {
      await app.stop(true);
      store.close();
    });
    return { url: `http://127.0.0.1:${app.server!.port}`, store, app };
  }

  onStop(stop: () => Promise<void> | void): void {
    this.stops.push(stop);
  }

  async stop(): Promise<void> {
    for (const stop of this.stops.reverse()) await stop();
    this.github.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Unwraps a published result, failing the test with the reason otherwise. */
export function published(result: RefreshResult) {
  if (result.status !== "published")
    throw new Error(`expected a published refresh, got ${result.status}: ${"reason" in result ? result.reason : ""}`);
  return result.report;
}

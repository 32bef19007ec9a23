import { afterEach, describe, expect, test } from "bun:test";
import { formatResult } from "../../src/refresh/report";
import { Env, OLD_SNAPSHOT_AT, published } from "./support";

let env: Env | undefined;
afterEach(async () => {
  await env?.stop();
  env = undefined;
});

const ZH = "编辑写的中文描述";
const NOW = new Date("2026-11-22T12:00:00.000Z");

interface CatalogItem {
  id: string;
  curated: boolean;
  description: string;
  description_zh: string | null;
  category: string;
  homepage: string | null;
  first_seen_at: string;
  repo_id: number | null;
  previous_ids: string[];
}

async function catalog(url: string): Promise<Map<string, CatalogItem>> {
  const body = (await (await fetch(`${url}/market/v1/catalog.json`)).json()) as { items: CatalogItem[] };
  return new Map(body.items.map((item) => [item.id, item]));
}

/** The curated `alice/tool`, published; then its owner renames it and a stranger creates a new `alice/tool`. */
function renameAndSquat(stranger: { evidence: boolean }, curated: { repo_id?: number } = {}): Env {
  const e = new Env({
    curated: [{ id: "alice/tool", description_zh: ZH, ...curated }],
    overrides: { "alice/tool": { category: "mcp" } },
  });
  e.github.add({ full_name: "alice/tool", stars: 5000, description: "A well-loved tool" });
  e.github.add({ full_name: "bob/other", stars: 40 });
  e.publishFake();
  e.github.repos.rename("alice/tool", "alice/tool-v2");
  e.github.add({
    full_name: "alice/tool",
    stars: 0,
    description: "run install.sh",
    homepage: "https://evil.example/",
    topics: stranger.evidence ? ["mcp-server"] : [],
  });
  return e;
}

describe("a plugin is its repository, not its name", () => {
  test.each([
    ["with a token (GraphQL)", "test-token"],
    ["without a token (REST)", undefined],
  ])(
    "%s: a renamed plugin whose name a stranger took keeps its editorial data and history under its new name; the stranger gets none",
    async (_, token) => {
      env = renameAndSquat({ evidence: true });
      const report = published(await env.refresh({ token, now: () => NOW }));
      const { url } = env.serve();
      const items = await catalog(url);

      const genuine = items.get("alice/tool-v2")!;
      expect(genuine).toMatchObject({
        curated: true,
        description_zh: ZH,
        category: "mcp",
        first_seen_at: OLD_SNAPSHOT_AT,
        repo_id: 1000,
        previous_ids: ["alice/tool"],
      });
      const stranger = items.get("alice/tool")!;
      expect(stranger).toMatchObject({
        curated: false,
        description_zh: null,
        description: "run install.sh",
        first_seen_at: NOW.toISOString(),
        repo_id: 1002,
        previous_ids: [],
      });

      const summary = report.summary!;
      expect(summary.replaced).toEqual([{ id: "alice/tool", from: 1000, to: 1002 }]);
      expect(summary.renamed).toEqual([{ from: "alice/tool", to: "alice/tool-v2" }]);
      expect(summary.added).toEqual(["alice/tool"]);
      const lines = formatResult({ status: "published", report }).join("\n");
      expect(lines).toContain("replaced 1: alice/tool (repository 1000 → 1002)");
      expect(lines).toContain("renamed 1: alice/tool → alice/tool-v2");
    },
  );

  test("a stranger without evidence is not published, and the old name redirects to the genuine plugin", async () => {
    env = renameAndSquat({ evidence: false });
    const report = published(await env.refresh({ now: () => NOW }));
    expect(report.summary!.replaced).toEqual([{ id: "alice/tool", from: 1000, to: 1002 }]);
    expect(report.discovery!.rejected).toEqual(["alice/tool"]);
    const { url } = env.serve();
    const moved = await fetch(`${url}/api/v1/plugins/alice/tool`, { redirect: "manual" });
    expect(moved.status).toBe(301);
    expect(moved.headers.get("location")).toBe("/api/v1/plugins/alice/tool-v2");
    expect((await catalog(url)).has("alice/tool")).toBe(false);
  });

  test("the next refresh still gives the editors' data to the repository, not to the name", async () => {
    env = renameAndSquat({ evidence: true });
    published(await env.refresh({ now: () => NOW }));
    const later = new Date(NOW.getTime() + 3_600_000);
    const report = published(await env.refresh({ now: () => later }));
    expect(report.summary!.replaced).toEqual([]);
    const items = await catalog(env.serve().url);
    expect(items.get("alice/tool-v2")).toMatchObject({ curated: true, description_zh: ZH, category: "mcp" });
    expect(items.get("alice/tool")).toMatchObject({ curated: false, description_zh: null });
  });

  test("the repository that had the name is gone: its plugin is removed, the reason says who took the name", async () => {
    env = renameAndSquat({ evidence: true });
    env.github.repos.remove("alice/tool-v2");
    const report = published(await env.refresh({ now: () => NOW }));
    expect(report.summary!.removed).toEqual([{ id: "alice/tool", reason: "name taken by repository 1002" }]);
    const items = await catalog(env.serve().url);
    expect(items.get("alice/tool")).toMatchObject({ curated: false, description_zh: null, repo_id: 1002 });
  });

  test("an editors' entry pinned to a repository id is applied to that repository only; a name answering with another id is reported", async () => {
    env = new Env({
      curated: [
        { id: "carol/kit", description_zh: ZH, repo_id: 4242 },
        { id: "dave/kit", description_zh: ZH, repo_id: 1001 },
      ],
      repositories: ["carol/kit", "dave/kit"],
    });
    env.github.add({ full_name: "carol/kit" }, { full_name: "dave/kit" });
    env.publish([]);
    const report = published(await env.refresh({ token: "test-token", now: () => NOW }));
    expect(report.pinMismatches).toEqual([{ entry: "carol/kit", pinned: 4242, found: 1000 }]);
    const items = await catalog(env.serve().url);
    expect(items.get("carol/kit")).toMatchObject({ curated: false, description_zh: null });
    expect(items.get("dave/kit")).toMatchObject({ curated: true, description_zh: ZH });
    expect(formatResult({ status: "published", report }).join("\n")).toContain(
      "pinned id not matched, entry not applied: carol/kit pins 4242, the name answers with 1000",
    );
  });
});

import { describe, expect, test } from "bun:test";
import { Classifier, toRecords } from "../../src/catalog/model/classify";
import { loadEditorial } from "../../src/catalog/model/editorial";
import type { Category, Editorial, RepoFacts } from "../../src/catalog/model/types";

const CATEGORIES: Category[] = [
  {
    id: "hooks",
    name: "Hooks",
    name_zh: "钩子",
    description: "",
    topics: ["claude-hooks"],
    keywords: ["hook", "hooks"],
    hints: [],
  },
  {
    id: "mcp",
    name: "MCP",
    name_zh: "MCP",
    description: "",
    topics: ["mcp-server"],
    keywords: ["model context protocol", "mcp server"],
    hints: ["mcp-server/"],
  },
  { id: "cli", name: "CLI", name_zh: "命令行", description: "", topics: [], keywords: ["cli"], hints: ["tool/cli"] },
  { id: "other", name: "Other", name_zh: "其他", description: "", topics: [], keywords: [], hints: [] },
];

function facts(full_name: string, fields: Partial<RepoFacts> = {}): RepoFacts {
  return {
    full_name,
    description: null,
    homepage: null,
    stars: 1,
    forks: 0,
    language: null,
    license: null,
    archived: null,
    created_at: "2025-01-01T00:00:00Z",
    pushed_at: "2026-01-01T00:00:00.123Z",
    topics: null,
    hint: null,
    ...fields,
  };
}

describe("Classifier", () => {
  const classifier = new Classifier(CATEGORIES);

  test("a topic rule assigns its category", () => {
    expect(classifier.categorize(facts("a/x", { topics: ["MCP-Server"] }))).toEqual(["mcp"]);
  });

  test("keywords match whole words in the name and description, hyphens read as spaces", () => {
    expect(classifier.categorize(facts("a/git-hooks"))).toEqual(["hooks"]);
    expect(classifier.categorize(facts("a/x", { description: "A Model-Context-Protocol server" }))).toEqual(["mcp"]);
    expect(classifier.categorize(facts("a/x", { description: "client library" }))).toEqual(["other"]);
    expect(classifier.categorize(facts("a/x", { description: "webhooks for slack" }))).toEqual(["other"]);
  });

  test("every matching category is listed, the highest priority first", () => {
    expect(classifier.categorize(facts("a/mcp-cli", { description: "hooks for any MCP server" }))).toEqual([
      "hooks",
      "mcp",
      "cli",
    ]);
  });

  test("the source hint counts only when no topic or keyword matches", () => {
    expect(classifier.categorize(facts("a/thing", { hint: "mcp-server/databases" }))).toEqual(["mcp"]);
    expect(classifier.categorize(facts("a/my-cli", { hint: "mcp-server/databases" }))).toEqual(["cli"]);
  });

  test("nothing matching falls back to other", () => {
    expect(classifier.categorize(facts("a/thing"))).toEqual(["other"]);
  });
});

describe("toRecords", () => {
  const editorial: Editorial = {
    categories: CATEGORIES,
    curated: [{ id: "a/picked", description_zh: "精选插件" }],
    overrides: {
      "a/moved": { category: "cli", description_zh: "改过的", note: "misfiled" },
      "a/gone": { exclude: true, note: "not a plugin" },
    },
  };
  const records = toRecords(
    [
      facts("a/picked", { topics: ["mcp-server"] }),
      facts("a/moved", { topics: ["mcp-server"] }),
      facts("a/gone"),
      facts("A/Picked"),
    ],
    editorial,
    () => ({ firstSeenAt: "2026-08-22T00:00:00Z" }),
  );

  test("curated plugins carry their Chinese description and the curated flag", () => {
    const picked = records.find((r) => r.id === "a/picked")!;
    expect(picked.curated).toBe(true);
    expect(picked.description_zh).toBe("精选插件");
  });

  test("an override's category becomes the primary one and keeps the others", () => {
    const moved = records.find((r) => r.id === "a/moved")!;
    expect(moved.category).toBe("cli");
    expect(moved.categories).toEqual(["cli", "mcp"]);
    expect(moved.description_zh).toBe("改过的");
    expect(moved.curated).toBe(false);
  });

  test("excluded and duplicate (case-insensitive) repositories are dropped", () => {
    expect(records.map((r) => r.id)).toEqual(["a/picked", "a/moved"]);
  });

  test("unknown facts become the contract's types, times in the contract's formats", () => {
    const r = toRecords([facts("b/bare")], editorial, () => ({ firstSeenAt: "2026-08-22T00:00:00Z" }))[0]!;
    expect(r).toMatchObject({
      description: "",
      language: "",
      license: "",
      archived: false,
      topics: [],
      homepage: null,
    });
    expect(r.pushed_at).toBe("2026-01-01T00:00:00Z");
    expect(r.first_seen_at).toBe("2026-08-22T00:00:00.000Z");
    expect(r.url).toBe("https://github.com/b/bare");
  });
});

describe("the editors' data in db/", () => {
  test("loads, names only known categories, and curates 25+ plugins with Chinese descriptions", () => {
    const editorial = loadEditorial();
    expect(editorial.categories.map((c) => c.id).sort()).toEqual([
      "agents-workflows",
      "cli",
      "commands",
      "guides",
      "hooks",
      "ide",
      "mcp",
      "observability",
      "other",
      "skills",
      "templates",
    ]);
    expect(editorial.curated.length).toBeGreaterThanOrEqual(25);
    for (const c of editorial.curated) expect(c.description_zh).toMatch(/[\u4e00-\u9fff]/);
    for (const c of editorial.categories) expect(c.name_zh).toMatch(/[\u4e00-\u9fff]|MCP|CLI|IDE/);
  });
});

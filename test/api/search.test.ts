import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { collectAll, plugin, snapshotInput, startServer, type TestServer } from "../helpers";

let server: TestServer;

const plugins = [
  plugin("acme/mcp-server-git", { stars: 10, description: "Git tools for agents", topics: ["git"] }),
  plugin("acme/github-helper", { stars: 500, description: "Works as an MCP server for GitHub", topics: ["github"] }),
  plugin("beta/toolbox", { stars: 900, description: "Assorted utilities", topics: ["mcp-server", "utilities"] }),
  plugin("gamma/Postgres-Bridge", { stars: 50, description: "Query PostgreSQL databases", topics: ["database"] }),
  plugin("delta/near-sighted", { stars: 5, description: "NEAR and AND and OR are words here", topics: [] }),
  plugin("eps/quoted", { stars: 7, description: 'He said "hello world" (loudly)', topics: [] }),
  plugin("zeta/café-tools", { stars: 3, description: "Résumé builder", topics: ["cafe"] }),
  plugin("eta/server-side", {
    stars: 2,
    description: "nothing relevant",
    topics: ["mcp"],
    curated: true,
    categories: ["mcp"],
    category: "mcp",
  }),
];

beforeAll(() => {
  server = startServer(snapshotInput(plugins));
});
afterAll(() => server.stop());

async function search(q: string, extra = ""): Promise<string[]> {
  const body = await server.json(`/api/v1/plugins?q=${encodeURIComponent(q)}${extra}`);
  expect(body.data.total).toBe(body.data.items.length);
  return body.data.items.map((p: { id: string }) => p.id);
}

describe("search with q", () => {
  test("finds by name, topic and description", async () => {
    expect(await search("toolbox")).toEqual(["beta/toolbox"]);
    expect(await search("utilities")).toEqual(["beta/toolbox"]);
    expect(await search("PostgreSQL")).toEqual(["gamma/Postgres-Bridge"]);
  });

  test("relevance blends the field a word is found in with popularity", async () => {
    // topics: toolbox (900★); name: mcp-server-git (10★); description: github-helper (500★);
    // topic and category: server-side (2★). A popular topic match outranks an obscure name match.
    expect(await search("mcp")).toEqual([
      "beta/toolbox",
      "acme/mcp-server-git",
      "acme/github-helper",
      "eta/server-side",
    ]);
  });

  test("prefix matching: mcp-ser finds mcp-server", async () => {
    expect(await search("mcp-ser")).toEqual(["beta/toolbox", "acme/mcp-server-git", "acme/github-helper"]);
    expect(await search("postg")).toEqual(["gamma/Postgres-Bridge"]);
  });

  test("is case-insensitive and folds diacritics", async () => {
    expect(await search("POSTGRES")).toEqual(["gamma/Postgres-Bridge"]);
    expect(await search("resume")).toEqual(["zeta/café-tools"]);
    expect(await search("CAFÉ")).toEqual(["zeta/café-tools"]);
  });

  test("every word must match", async () => {
    expect(await search("git tools")).toEqual(["acme/mcp-server-git"]);
    expect(await search("git nonexistentword")).toEqual([]);
  });

  test("search syntax is plain text", async () => {
    expect(await search("AND")).toEqual(["delta/near-sighted"]);
    expect(await search("NEAR")).toEqual(["delta/near-sighted"]);
    expect(await search("OR NOT")).toEqual([]);
    expect(await search('"hello world"')).toEqual(["eps/quoted"]);
    expect(await search('"hello')).toEqual(["eps/quoted"]);
    expect(await search("(loudly")).toEqual(["eps/quoted"]);
    expect(await search("hello*")).toEqual(["eps/quoted"]);
    expect(await search("hel*")).toEqual(["acme/github-helper", "eps/quoted"]);
    expect(await search("*")).toEqual([]);
    expect(await search("said:hello")).toEqual(["eps/quoted"]);
    expect(await search("description:hello")).toEqual([]);
    expect(await search("NEAR(hello world)")).toEqual([]);
    expect(await search("^git")).toEqual(["acme/github-helper", "acme/mcp-server-git"]);
  });

  test("an SQL-injection string is only text and the data is untouched", async () => {
    expect(await search("'; DROP TABLE plugins; --")).toEqual([]);
    expect(await search("x' OR '1'='1")).toEqual([]);
    expect((await server.json("/api/v1/plugins")).data.total).toBe(plugins.length);
  });

  test("empty or whitespace-only q means no search", async () => {
    for (const q of ["", "   ", "%20%09"]) {
      const body = await server.json(`/api/v1/plugins?q=${q}`);
      expect(body.data.total).toBe(plugins.length);
    }
  });

  test("combines with category, curated and an explicit sort", async () => {
    expect(await search("mcp", "&category=mcp")).toEqual(["eta/server-side"]);
    expect(await search("mcp", "&curated=1")).toEqual(["eta/server-side"]);
    expect(await search("mcp", "&sort=stars")).toEqual([
      "beta/toolbox",
      "acme/github-helper",
      "acme/mcp-server-git",
      "eta/server-side",
    ]);
    expect(await search("mcp", "&sort=name")).toEqual([
      "acme/github-helper",
      "acme/mcp-server-git",
      "eta/server-side",
      "beta/toolbox",
    ]);
  });

  test("pages through search results with the true total", async () => {
    const first = await server.json("/api/v1/plugins?q=mcp&pageSize=3");
    const second = await server.json("/api/v1/plugins?q=mcp&pageSize=3&page=2");
    expect(first.data.total).toBe(4);
    expect(second.data.total).toBe(4);
    expect([...first.data.items, ...second.data.items].map((p: { id: string }) => p.id)).toEqual(await search("mcp"));
    const past = await server.json("/api/v1/plugins?q=mcp&page=9");
    expect(past.data.items).toEqual([]);
    expect(past.data.total).toBe(4);
  });

  test("q of exactly 200 characters is accepted; 201 is a 400", async () => {
    expect((await server.get(`/api/v1/plugins?q=${"a".repeat(200)}`)).status).toBe(200);
    const res = await server.get(`/api/v1/plugins?q=${"a".repeat(201)}`);
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).message).toContain("q");
  });
});

describe("words in most of the catalog", () => {
  test("give the index's own rows over HTTP, in every sort", async () => {
    const db = new Database(server.path, { readonly: true });
    try {
      const count = (match: string) =>
        db.query<{ n: number }, [string]>("SELECT count(*) AS n FROM plugins_fts WHERE plugins_fts MATCH ?").get(match)!
          .n;
      const total = db.query<{ n: number }, []>("SELECT count(*) AS n FROM plugins").get()!.n;
      // One-letter prefixes found in at least half of the plugins.
      const phrases = [..."abcdefghijklmnopqrstuvwxyz0123456789"]
        .map((c) => `"${c}"*`)
        .filter((p) => count(p) >= total / 2);
      const matching = (match: string) =>
        db
          .query<{ id: string }, [string]>(
            "SELECT id FROM plugins WHERE rowid IN (SELECT rowid FROM plugins_fts WHERE plugins_fts MATCH ?)",
          )
          .all(match)
          .map((r) => r.id)
          .sort();
      // Two broad words whose rows overlap only in part, so the AND is neither one alone.
      const pairs = phrases.flatMap((a, i) => phrases.slice(i + 1).map((b) => [a, b]));
      const chosen = pairs.find(([a, b]) => {
        const both = matching(`${a} AND ${b}`).length;
        return both > 0 && both < Math.min(matching(a!).length, matching(b!).length);
      })!;
      expect(chosen).toBeDefined();
      const want = matching(chosen.join(" AND "));
      const q = chosen.map((phrase) => phrase.slice(1, -2)).join(" ");
      for (const sort of ["default", "stars", "name", "heat"]) {
        const { ids, totals } = await collectAll(server, `/api/v1/plugins?q=${encodeURIComponent(q)}&sort=${sort}`, 3);
        expect({ sort, ids: [...ids].sort() }).toEqual({ sort, ids: want });
        expect(new Set(totals)).toEqual(new Set([want.length]));
      }
    } finally {
      db.close();
    }
  });
});

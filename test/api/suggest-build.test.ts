/**
 * The typeahead's index is written by the snapshot build: the serving process opens a snapshot and
 * answers suggestions without building anything that grows with the catalog, and the stored index
 * answers every prefix as a full scan of the catalog would.
 */
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { POPULARITY } from "../../src/catalog/model/snapshot-schema";
import type { PluginRecord } from "../../src/catalog/model/types";
import { prefixUpperBound, SCAN_LIMIT, SUGGEST_LIMIT, SuggestIndex } from "../../src/catalog/search/typeahead";
import { buildSnapshot } from "../../src/catalog/snapshot/build";
import { Snapshot } from "../../src/catalog/snapshot/snapshot";
import { plugin, snapshotInput, startServer, type TestServer, tempDir } from "../helpers";

/** A catalog where many names share prefixes, so some ranges are longer than the per-request scan. */
function catalog(size: number): PluginRecord[] {
  let seed = 11;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  // Lower-case text past ASCII too, below and above U+FFFF, where code unit and code point orders differ.
  const words = ["mcp", "mcp-server", "Claude", "cl", "agent", "a", "skills", "x", "ü", "\u{ff41}b", "😀"];
  const taken = new Set<string>();
  const plugins: PluginRecord[] = [];
  while (plugins.length < size) {
    const owner = `${words[Math.floor(random() * words.length)]}${Math.floor(random() * 30)}`;
    const name = `${words[Math.floor(random() * words.length)]}-${Math.floor(random() * 1000)}`;
    const id = `${owner}/${name}`;
    if (taken.has(id.toLowerCase())) continue;
    taken.add(id.toLowerCase());
    // Few distinct star counts, so ties between plugins are common.
    plugins.push(plugin(id, { stars: Math.floor(random() * 50), forks: Math.floor(random() * 3) }));
  }
  return plugins;
}

describe("the typeahead index in the snapshot file", () => {
  const plugins = catalog(3000);
  const { dir, cleanup } = tempDir();
  const path = join(dir, "catalog.sqlite");
  let snapshot: Snapshot;
  let popularity: Float64Array;
  let rowidOf: Map<string, number>;
  beforeAll(() => {
    buildSnapshot(path, snapshotInput(plugins));
    snapshot = Snapshot.open(path);
    const db = new Database(path, { readonly: true });
    const blob = db.query<{ ids: Uint8Array }, [string]>("SELECT ids FROM orders WHERE key = ?").get(POPULARITY)!.ids;
    popularity = new Float64Array(blob.slice().buffer);
    rowidOf = new Map(
      db
        .query<{ id: string; rowid: number }, []>("SELECT id, rowid FROM plugins")
        .all()
        .map((r) => [r.id, r.rowid]),
    );
    db.close();
  });
  afterAll(() => {
    snapshot.close();
    cleanup();
  });

  /** Every match of a prefix (ASCII letters lower-cased, as SQLite's lower()), most popular first. */
  function bruteForce(prefix: string): number[] {
    const lower = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());
    return plugins
      .filter((p) => lower(p.name).startsWith(prefix) || lower(p.id).startsWith(prefix))
      .map((p) => rowidOf.get(p.id)!)
      .sort((a, b) => popularity[b]! - popularity[a]! || a - b);
  }

  test("answers every prefix as a full scan would, long ranges from the build's ranking", () => {
    const prefixes = new Set<string>();
    for (const p of plugins.filter((_, i) => i % 15 === 0)) {
      for (const text of [p.id.toLowerCase(), p.name.toLowerCase()]) {
        const chars = [...text];
        for (let n = 1; n <= chars.length; n++) prefixes.add(chars.slice(0, n).join(""));
      }
    }
    let long = 0;
    const wrong: string[] = [];
    for (const prefix of prefixes) {
      const all = bruteForce(prefix);
      if (all.length > SCAN_LIMIT) long++;
      if (snapshot.suggest(prefix).join() !== all.slice(0, SUGGEST_LIMIT).join()) wrong.push(prefix);
    }
    expect(wrong).toEqual([]);
    expect(long).toBeGreaterThan(10);
    expect(snapshot.suggest("no-such-prefix")).toEqual([]);
    expect(snapshot.suggest("")).toEqual([]);
  });

  test("holds two keys per plugin and the best of every prefix too long to rank per request", () => {
    const db = new Database(path, { readonly: true });
    const count = (sql: string) => db.query<{ n: number }, []>(sql).get()!.n;
    expect(count("SELECT count(*) AS n FROM suggest_keys")).toBe(2 * plugins.length);
    expect(count("SELECT count(*) AS n FROM suggest_best")).toBeGreaterThan(10);
    expect(count("SELECT count(*) AS n FROM suggest_best WHERE length(ids) > 4 * 10")).toBe(0);
    db.close();
  });
});

describe("the serving process", () => {
  let server: TestServer;
  beforeAll(() => {
    server = startServer(snapshotInput(catalog(600)));
  });
  afterAll(() => server.stop());

  test("opens a snapshot and answers suggestions without building the index", async () => {
    // The build that published the snapshot ranked its prefixes; serving ranks none.
    const built = SuggestIndex.built;
    expect(built).toBeGreaterThan(0);
    for (const q of ["a", "mcp", "cl", "x1", "😀", "nothing"]) {
      const response = await server.get(`/api/v1/suggest?q=${encodeURIComponent(q)}`);
      expect(response.status).toBe(200);
    }
    expect((await server.json("/api/v1/suggest?q=a")).data.items).toHaveLength(SUGGEST_LIMIT);
    expect(SuggestIndex.built).toBe(built);
  });
});

describe("prefixUpperBound", () => {
  test("is the prefix with its last code point raised, past the surrogates and the last code point", () => {
    expect(prefixUpperBound("ab")).toBe("ac");
    expect(prefixUpperBound("a/")).toBe("a0");
    expect(prefixUpperBound("a\u{d7ff}")).toBe("a\u{e000}");
    expect(prefixUpperBound("a😀")).toBe("a😁");
    expect(prefixUpperBound("a\u{10ffff}")).toBe("b");
    expect(prefixUpperBound("\u{10ffff}")).toBeNull();
  });
});

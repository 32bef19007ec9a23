/**
 * GET /api/v1/suggest: prefixes of a name, an owner or a full name, most popular first, at most
 * 10, cached with an ETag, in its own rate-limit group sized for typing. The index is checked
 * against a brute-force scan on a catalog whose prefixes exceed the per-request scan.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  SCAN_LIMIT,
  SUGGEST_LIMIT,
  SuggestIndex,
  type SuggestKey,
  suggestSource,
} from "../../src/catalog/search/typeahead";
import { BurstLimiter } from "../../src/http/rate-limit";
import { SUGGEST_RULE } from "../../src/routes/suggest-routes";
import { plugin, snapshotInput, startServer, type TestServer } from "../helpers";

const plugins = [
  plugin("anthropics/claude-code", { stars: 50_000, forks: 5_000, description: "The agent." }),
  plugin("anthropics/skills", { stars: 30_000, description: "Skills." }),
  plugin("acme/claude-helper", { stars: 10, description: "A helper." }),
  plugin("claudefans/toolbox", { stars: 500, description: "Tools." }),
  plugin("zed/Claude-Zed", { stars: 2_000 }),
  plugin("other/unrelated", { stars: 99_999 }),
  ...Array.from({ length: 14 }, (_, i) => plugin(`bulk/mcp-${String(i).padStart(2, "0")}`, { stars: i * 10 })),
];

type Item = { id: string; name: string; description: string; stars: number };

let server: TestServer;
beforeAll(() => {
  server = startServer(snapshotInput(plugins));
});
afterAll(() => server.stop());

const suggest = async (q: string): Promise<Item[]> =>
  (await server.json(`/api/v1/suggest?q=${encodeURIComponent(q)}`)).data.items;

describe("GET /api/v1/suggest", () => {
  test("a name prefix finds plugins of any owner, most popular first, with id, name, description and stars", async () => {
    const items = await suggest("clau");
    expect(items.map((i) => i.id)).toEqual([
      "anthropics/claude-code",
      "zed/Claude-Zed",
      "claudefans/toolbox",
      "acme/claude-helper",
    ]);
    expect(items[0]).toEqual({
      id: "anthropics/claude-code",
      name: "claude-code",
      description: "The agent.",
      stars: 50_000,
    });
  });

  test("an owner prefix and a full-name prefix find that owner's plugins", async () => {
    expect((await suggest("anthrop")).map((i) => i.id)).toEqual(["anthropics/claude-code", "anthropics/skills"]);
    expect((await suggest("anthropics/sk")).map((i) => i.id)).toEqual(["anthropics/skills"]);
    expect((await suggest("claudefans/")).map((i) => i.id)).toEqual(["claudefans/toolbox"]);
  });

  test("case and surrounding spaces aside; no match and no text give no items", async () => {
    expect((await suggest("  CLAUDE-z ")).map((i) => i.id)).toEqual(["zed/Claude-Zed"]);
    expect(await suggest("nothing-like-this")).toEqual([]);
    expect(await suggest("")).toEqual([]);
    expect((await server.json("/api/v1/suggest")).data.items).toEqual([]);
  });

  test(`at most ${SUGGEST_LIMIT} items, the most popular of the matches`, async () => {
    const items = await suggest("bulk");
    expect(items).toHaveLength(SUGGEST_LIMIT);
    expect(items.map((i) => i.id)).toEqual(
      Array.from({ length: 10 }, (_, i) => `bulk/mcp-${String(13 - i).padStart(2, "0")}`),
    );
  });

  test("is in the API's envelope with the snapshot's time, cached with an ETag; a current copy gets 304", async () => {
    const response = await server.get("/api/v1/suggest?q=claude");
    const body = (await response.json()) as { code: number; message: string; data: { generatedAt: string } };
    expect(body.code).toBe(0);
    expect(body.message).toBe("ok");
    expect(body.data.generatedAt).toBe("2026-08-22T00:00:00.000Z");
    const etag = response.headers.get("etag")!;
    expect(etag).toMatch(/^"/);
    // One prefix in any spelling is one cached answer.
    expect((await server.get("/api/v1/suggest?q=CLAUDE")).headers.get("etag")).toBe(etag);
    expect((await server.get("/api/v1/suggest?q=claude", { "If-None-Match": etag })).status).toBe(304);
  });

  test("a malformed q is a 400 in the envelope's error shape", async () => {
    const twice = await server.get("/api/v1/suggest?q=a&q=b");
    expect(twice.status).toBe(400);
    expect(await twice.json()).toMatchObject({ code: 400, data: null });
    expect((await server.get(`/api/v1/suggest?q=${"a".repeat(201)}`)).status).toBe(400);
  });
});

describe("the suggest rate-limit group", () => {
  let limited: TestServer;
  beforeAll(() => {
    limited = startServer(snapshotInput(plugins), { rateLimitWindowMs: 2000 });
  });
  afterAll(() => limited.stop());

  test(`admits a burst of ${SUGGEST_RULE.burst} from one client at once, where the list admits one; then 429`, async () => {
    // Sent together: a burst's worth is admitted, and more than the refill of the time they take is refused.
    const sent = 16;
    const responses = await Promise.all(
      Array.from({ length: sent }, (_, i) => fetch(`${limited.url}/api/v1/suggest?q=c${i}`)),
    );
    const admitted = responses.filter((r) => r.status === 200);
    const refused = responses.filter((r) => r.status === 429);
    expect(admitted.length + refused.length).toBe(sent);
    expect(admitted.length).toBeGreaterThanOrEqual(SUGGEST_RULE.burst);
    expect(refused.length).toBeGreaterThan(0);
    for (const response of admitted) expect(response.headers.get("ratelimit-limit")).toBe(String(SUGGEST_RULE.burst));
    const remaining = admitted.map((r) => Number(r.headers.get("ratelimit-remaining")));
    expect(remaining).toContain(SUGGEST_RULE.burst - 1);
    expect(remaining).toContain(0);
    const refusal = refused[0]!;
    expect(Number(refusal.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(((await refusal.json()) as { message: string }).message).toContain(`${SUGGEST_RULE.burst} at once`);
  });

  test("is its own group: the list endpoint's one-per-window limit is untouched by typing", async () => {
    const list = await limited.get("/api/v1/plugins");
    expect(list.status).toBe(200);
    expect(list.headers.get("ratelimit-limit")).toBe("1");
    expect((await limited.get("/api/v1/plugins")).status).toBe(429);
  });
});

describe("BurstLimiter", () => {
  test("admits the burst, then one request per interval; forgets nothing it should remember", () => {
    const limiter = new BurstLimiter({ burst: 3, intervalMs: 100 });
    const at = (now: number) => limiter.hit("client", now);
    expect([at(0), at(0), at(0)].map((v) => v.allowed)).toEqual([true, true, true]);
    const refused = at(10);
    expect(refused.allowed).toBe(false);
    expect(refused.resetMs).toBe(90);
    expect(at(100).allowed).toBe(true);
    expect(at(120).allowed).toBe(false);
    // Idle long enough, the whole burst is back.
    expect([at(1000), at(1000), at(1000), at(1000)].map((v) => v.allowed)).toEqual([true, true, true, false]);
    expect(limiter.hit("other", 1000).allowed).toBe(true);
  });

  test("holds at most maxKeys clients", () => {
    const limiter = new BurstLimiter({ burst: 2, intervalMs: 1000 }, 4);
    for (let i = 0; i < 50; i++) limiter.hit(`client-${i}`, i);
    expect(limiter.size).toBeLessThanOrEqual(4);
  });
});

describe("SuggestIndex", () => {
  /** A catalog where many names share prefixes, so some ranges are longer than the per-request scan. */
  function catalog(size: number): SuggestKey[] {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const words = ["mcp", "mcp-server", "claude", "cl", "agent", "a", "skills", "x"];
    return Array.from({ length: size }, (_, i) => {
      const owner = `${words[Math.floor(random() * words.length)]}${Math.floor(random() * 30)}`;
      const name = `${words[Math.floor(random() * words.length)]}-${Math.floor(random() * 1000)}`;
      return { rowid: i + 1, id: `${owner}/${name}`, name, popularity: Math.floor(random() * 50) };
    });
  }

  /** Every match of a prefix, most popular first. */
  function bruteForce(keys: SuggestKey[], prefix: string): number[] {
    return keys
      .filter((k) => k.name.startsWith(prefix) || k.id.startsWith(prefix))
      .sort((a, b) => b.popularity - a.popularity || a.rowid - b.rowid)
      .map((k) => k.rowid);
  }

  test("answers every prefix as a full scan would, ranking long ranges at build time", () => {
    const keys = catalog(3000);
    const index = new SuggestIndex(suggestSource(keys));
    expect(index.rankedPrefixes).toBeGreaterThan(0);
    const prefixes = new Set<string>();
    // Every prefix of a sample of the keys: the short ones hold long ranges, the long ones short ranges.
    for (const k of keys.filter((_, i) => i % 20 === 0)) {
      for (const text of [k.id, k.name]) for (let n = 1; n <= text.length; n++) prefixes.add(text.slice(0, n));
    }
    let long = 0;
    const wrong: string[] = [];
    for (const prefix of prefixes) {
      const all = bruteForce(keys, prefix);
      if (all.length > SCAN_LIMIT) long++;
      if (index.lookup(prefix).join() !== all.slice(0, SUGGEST_LIMIT).join()) wrong.push(prefix);
    }
    expect(wrong).toEqual([]);
    expect(long).toBeGreaterThan(10);
  });
});

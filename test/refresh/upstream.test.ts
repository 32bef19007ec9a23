import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { DB_DIR } from "../../src/catalog/model/editorial";
import { loadDiscoveryRules } from "../../src/refresh/discover/discovery-rules";
import { formatResult } from "../../src/refresh/report";
import { cleanText, MAX_DESCRIPTION, printable, UpstreamGate } from "../../src/refresh/upstream/gate";
import { HOSTILE, hostileSeeds } from "../fakes/hostile-repos";
import { spawnRefresh, within } from "./cli";
import { Env, published, record } from "./support";

let env: Env | undefined;
afterEach(async () => {
  await env?.stop();
  env = undefined;
});

/** C0 and C1 controls (but the line feed), DEL, bidi overrides and isolates. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters the output must not hold
const UNSAFE = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/;
/** The same, line feed included: what a single printed line must not hold. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters the output must not hold
const UNSAFE_IN_LINE = /[\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/;
const TOPIC = "mcp-server";
/** The platform's search would place a creation time of "1" in 2001, before any window it is asked for. */
const LISTED = [HOSTILE.createdAtOne!.full_name];

interface Served {
  id: string;
  description: string;
  homepage: string | null;
  topics: string[];
  stars: number;
  created_at: string;
}

async function plugins(url: string): Promise<Map<string, Served>> {
  const body = (await (await fetch(`${url}/api/v1/plugins?limit=100`)).json()) as { data: { items: Served[] } };
  return new Map(body.data.items.map((p) => [p.id, p]));
}

describe("one gate for upstream facts", () => {
  test("a refresh with hostile records publishes the good ones and every repairable one, cleaned, and counts what it did", async () => {
    env = new Env({ searches: [{ query: `topic:${TOPIC}` }], repositories: LISTED });
    env.github.add(
      { full_name: "good/one", topics: [TOPIC] },
      { full_name: "good/two", topics: [TOPIC] },
      ...hostileSeeds(TOPIC),
    );
    const report = published(await env.refresh());
    const { url } = env.serve();
    const served = await plugins(url);

    expect([...served.keys()].sort()).toEqual([
      "good/one",
      "good/two",
      "hostile/control-characters",
      "hostile/data-homepage",
      "hostile/javascript-homepage",
      "hostile/megabyte-description",
      "hostile/three-hundred-topics",
      "hostile/topics-not-strings",
    ]);
    // New records whose stars or creation time cannot be trusted have no earlier value to keep: left out.
    expect(report.gate.leftOut).toEqual(
      new Map([
        ["full_name: not a repository name", 1],
        ["created_at: missing or invalid", 1],
        ["stars: missing or invalid", 1],
      ]),
    );
    const control = served.get("hostile/control-characters")!;
    expect(control.description).toBe("ok[2J]0;owned line break evil isolate c1 end");
    expect(served.get("hostile/megabyte-description")!.description.length).toBeLessThanOrEqual(1000);
    expect(served.get("hostile/three-hundred-topics")!.topics).toHaveLength(20);
    expect(served.get("hostile/topics-not-strings")!.topics).toEqual([TOPIC]);
    expect(served.get("hostile/javascript-homepage")!.homepage).toBeNull();
    expect(served.get("hostile/data-homepage")!.homepage).toBeNull();
    const summary = formatResult({ status: "published", report }).join("\n");
    expect(summary).toContain(
      "left out: full_name: not a repository name 1, created_at: missing or invalid 1, stars: missing or invalid 1",
    );
    expect(summary).toMatch(/cleaned fields: .*homepage: not an http\(s\) address 2/);
  });

  test("a field that fails keeps the published value", async () => {
    env = new Env();
    env.github.add({ full_name: "known/plugin", stars: 2n ** 60n, created_at: "1", homepage: "javascript:void(0)" });
    env.publish([
      record("known/plugin", { stars: 42, homepage: "https://known.example/", created_at: "2024-05-01T00:00:00Z" }),
    ]);
    const report = published(await env.refresh());
    expect(report.summary!.removed).toEqual([]);
    const served = await plugins(env.serve().url);
    expect(served.get("known/plugin")).toMatchObject({
      stars: 42,
      homepage: "https://known.example/",
      created_at: "2024-05-01T00:00:00Z",
    });
  });
});

describe("the checkpoint", () => {
  test("holds only cleaned facts, so a run cut short by its budget is resumed by the next one", async () => {
    env = new Env({ searches: [{ query: `topic:${TOPIC}` }], repositories: LISTED });
    for (let i = 0; i < 120; i++) env.github.add({ full_name: `org/repo-${i}`, topics: [TOPIC] });
    env.github.add(...hostileSeeds(TOPIC));
    env.github.setRemaining("graphql", 1, 3600);
    expect((await env.refresh()).status).toBe("incomplete");
    const saved = readFileSync(`${env.databasePath}-refresh.json`, "utf8");
    expect(saved).not.toMatch(UNSAFE);
    expect(saved).not.toContain("evil/");
    // The platform's numeric id comes with the facts: it survives renames.
    const outcomes = JSON.parse(saved).outcomes as Record<string, { facts?: { database_id?: number } }>;
    expect(outcomes["org/repo-0"]?.facts?.database_id).toBe(env.github.repos.get("org/repo-0").id);
    env.github.resetBudgets();
    const report = published(await env.refresh());
    expect(report.resumed).toBe(true);
    // 120 good, 6 hostile but repairable; the bad name, the bigint stars and the guessed date are left out.
    expect(report.total).toBe(126);
  });

  test("an unreadable or forged checkpoint is discarded with a log line, and the refresh publishes", async () => {
    env = new Env();
    env.github.add({ full_name: "good/one" });
    env.publishFake();
    const path = `${env.databasePath}-refresh.json`;
    const forged = {
      version: 2,
      base: "2026-08-22T00:00:00.000Z",
      startedAt: new Date().toISOString(),
      failures: 0,
      discovery: null,
      outcomes: {
        "good/one": {
          kind: "fetched",
          etag: null,
          facts: { full_name: "evil/../../etc", stars: "9007199254740993000" },
        },
      },
    };
    for (const content of ["{ half a checkpoint", JSON.stringify(forged)]) {
      writeFileSync(path, content);
      const events: Array<[string, Record<string, unknown>]> = [];
      const report = published(await env.refresh({ log: (event, fields) => events.push([event, fields]) }));
      expect(report.resumed).toBe(false);
      expect(events.find(([event]) => event === "refresh.checkpoint_discarded")?.[1].reason).toBeOneOf([
        "unreadable",
        "does not match its schema",
      ]);
      expect(existsSync(path)).toBe(false);
    }
  });

  test("after two failed runs resuming the same progress, the third starts afresh instead of failing again", async () => {
    env = new Env();
    for (let i = 0; i < 3; i++) env.github.add({ full_name: `org/repo-${i}` });
    env.publishFake();
    env.github.fail({ route: "graphql", status: 500, times: 1000 });
    const events: string[] = [];
    const log = (event: string) => events.push(event);
    await expect(env.refresh({ log })).rejects.toMatchObject({ status: 500 });
    await expect(env.refresh({ log })).rejects.toMatchObject({ status: 500 });
    expect(events).not.toContain("refresh.checkpoint_discarded");
    await expect(env.refresh({ log })).rejects.toMatchObject({ status: 500 });
    expect(events).toContain("refresh.checkpoint_discarded");
  });
});

describe("human-readable output", () => {
  test("bun run refresh prints no control character from the data, whatever an upstream error says", async () => {
    env = new Env({ searches: [{ query: `topic:${TOPIC}` }] });
    env.github.add({ full_name: "good/one", topics: [TOPIC] }, ...hostileSeeds(TOPIC));
    env.publish([record("good/one")]);
    const ok = await within(spawnRefresh(env).done(), 30_000, "the refresh");
    expect(ok.code).toBe(0);
    expect(ok.stdout).not.toMatch(UNSAFE);

    env.github.fail({
      route: "graphql",
      status: 500,
      times: 100,
      message: "boom \u001b[2J\u001b]0;owned\u0007 \u202Egnp.exe",
    });
    const failed = await within(spawnRefresh(env).done(), 30_000, "the failing refresh");
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain("boom \\u{1b}[2J\\u{1b}]0;owned\\u{7} \\u{202e}gnp.exe");
    expect(`${failed.stdout}${failed.stderr}`).not.toMatch(UNSAFE);
  });
});

test("the hostile cases are the ones the checks above name", () => {
  expect(Object.keys(HOSTILE).sort()).toEqual([
    "bigintStars",
    "controlCharacters",
    "createdAtOne",
    "dataHomepage",
    "javascriptHomepage",
    "megabyteDescription",
    "nonStringTopics",
    "pathName",
    "threeHundredTopics",
  ]);
});

describe("the cleaners", () => {
  test("any string becomes text without unsafe characters, at most the cap, and a printed line shows none", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 3000 }), (s) => {
        const text = cleanText(s, MAX_DESCRIPTION);
        if (text !== null) {
          expect(text).not.toMatch(UNSAFE);
          expect(text).not.toMatch(/[\n\r]/);
          expect(Array.from(text).length).toBeLessThanOrEqual(MAX_DESCRIPTION);
          expect(JSON.parse(JSON.stringify(text))).toBe(text);
        }
        expect(printable(s)).not.toMatch(UNSAFE_IN_LINE);
      }),
    );
  });

  test("names are the platform's: no path segments, no dots alone, owners of at most 39 characters", () => {
    const gate = new UpstreamGate();
    for (const bad of [
      "evil/../../etc",
      "evil/..",
      "evil/.",
      "a/b/c",
      `${"o".repeat(40)}/x`,
      "-lead/x",
      "own er/x",
      "o/n\u0000",
      42,
      null,
    ]) {
      expect(gate.id(bad, "test")).toBeNull();
    }
    for (const good of [
      "a/b",
      "Owner-1/name.with_dots-and-dashes",
      `${"o".repeat(39)}/${"n".repeat(100)}`,
      "o/.github",
    ]) {
      expect(gate.id(good, "test")).toBe(good as string);
    }
  });
});

describe("the rules file", () => {
  test("a rule without a note, or a code search that sets size:, is refused at load", () => {
    const env2 = new Env();
    try {
      const path = join(env2.dataDir, "discovery.json");
      writeFileSync(path, JSON.stringify({ searches: [{ query: "topic:x" }] }));
      expect(() => loadDiscoveryRules(env2.dataDir)).toThrow(/note/);
      writeFileSync(path, JSON.stringify({ code: [{ query: "filename:x size:1..2", note: "n" }] }));
      expect(() => loadDiscoveryRules(env2.dataDir)).toThrow(/must not set size:/);
      expect(loadDiscoveryRules(DB_DIR).searches.every((r) => r.note.length > 0)).toBe(true);
    } finally {
      void env2.stop();
    }
  });
});

test("a published value from before the gate that fails its schema is no fallback: the field is emptied", () => {
  const gate = new UpstreamGate((key) =>
    key === "old/plugin"
      ? { ...record("old/plugin"), homepage: "javascript:alert(1)", topics: ["Bad Topic"], description: "d", forks: 1 }
      : undefined,
  );
  const facts = gate.facts({
    full_name: "old/plugin",
    description: "ok",
    homepage: "data:x",
    stars: 1,
    forks: 1,
    language: null,
    license: null,
    archived: false,
    created_at: "2025-01-01T00:00:00Z",
    pushed_at: "2025-01-01T00:00:00Z",
    topics: ["ok"],
    hint: undefined,
  });
  expect(facts).toMatchObject({ full_name: "old/plugin", homepage: null, topics: ["ok"] });
  expect(gate.counts.cleaned.get("homepage: published value fails the schema")).toBe(1);
});

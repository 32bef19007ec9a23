/**
 * A refresh under a policy against the fake platform: what it keeps out is not served but stays
 * known (not counted as a drop, not a newcomer when admitted again), its decision names the rule,
 * a plugin approved at a commit stays served at that commit when its head moves, and a bad policy
 * fails the run before it publishes.
 */
import { Database } from "bun:sqlite";
import { afterEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { PolicyError } from "../../src/catalog/model/policy-file";
import { spawnRefresh, within } from "./cli";
import { Env, OLD_SNAPSHOT_AT, published } from "./support";

let env: Env;
afterEach(() => env.stop());

const policyPath = () => join(env.dir, "policy.yml");
const writePolicy = (text: string) => writeFileSync(policyPath(), text);
const refresh = () => env.refresh({ policyPath: policyPath() });

async function json(url: string, path: string) {
  const response = await fetch(url + path);
  return { status: response.status, body: (await response.json()) as any };
}

function policyRows(): Array<{ id: string; rule: string | null; newer: string | null }> {
  const db = new Database(env.databasePath, { readonly: true });
  try {
    return db
      .query<{ id: string; rule: string | null; newer: string | null }, []>(
        "SELECT id, rule, newer FROM policy_records ORDER BY id",
      )
      .all();
  } finally {
    db.close();
  }
}

function seed(): void {
  env = new Env();
  for (let i = 0; i < 20; i++) env.github.add({ full_name: `org/repo-${i}`, stars: 100 + i, description: `Repo ${i}` });
  for (let i = 0; i < 5; i++) env.github.add({ full_name: `evil/tool-${i}`, stars: 50 + i, description: `Tool ${i}` });
  env.publishFake();
}

describe("a refresh under a policy", () => {
  test("serves only what it admits, without counting the rest as a drop, and names the rule", async () => {
    seed();
    writePolicy("deny:\n  - owner: evil # not ours\n");
    // 5 of 25 kept out is 20%: a drop the default REFRESH_MAX_DROP (10%) would refuse.
    const report = published(await env.refresh({ policyPath: policyPath(), maxDrop: 0.1 }));
    expect([report.total, report.served]).toEqual([25, 20]);
    const { url } = env.serve();
    const list = await json(url, "/api/v1/plugins?limit=100");
    expect(list.body.data.total).toBe(20);
    expect(list.body.data.items.every((p: { id: string }) => p.id.startsWith("org/"))).toBe(true);
    expect((await json(url, "/api/v1/plugins/evil/tool-0")).status).toBe(404);
    const listing = (await json(url, "/api/v1/listing/evil/tool-3")).body.data;
    expect([listing.status, listing.reason, listing.policy_rule]).toEqual(["rejected", "policy", "deny owner evil"]);
    expect(policyRows().filter((r) => r.rule !== null)).toHaveLength(5);
    expect(policyRows()).toHaveLength(25);
  });

  test("a plugin it kept out is known to the next run: admitted again, it is no newcomer and keeps its first sighting", async () => {
    seed();
    writePolicy("deny:\n  - owner: evil\n");
    published(await refresh());
    writePolicy("deny: []\n");
    const report = published(await env.refresh({ policyPath: policyPath(), maxGrowth: 0.01 }));
    expect(report.summary!.added).toEqual([]);
    expect(report.held ?? []).toEqual([]);
    const { url } = env.serve();
    const catalog = (await json(url, "/market/v1/catalog.json")).body;
    const tool = catalog.items.find((p: { id: string }) => p.id === "evil/tool-0");
    expect(tool.first_seen_at).toBe(OLD_SNAPSHOT_AT);
    expect((await json(url, "/api/v1/listing/evil/tool-0")).body.data.status).toBe("listed");
  });

  test("without a policy file, nothing is kept aside and every plugin is served", async () => {
    seed();
    published(await refresh());
    expect(policyRows()).toEqual([]);
    const { url } = env.serve();
    expect((await json(url, "/api/v1/plugins?limit=100")).body.data.total).toBe(25);
  });
});

describe("a plugin approved at a commit", () => {
  test("stays served as read at that commit when its head moves, the newer reading waiting beside it", async () => {
    env = new Env({ repositories: ["acme/pinned"] });
    const files = (text: string) => ({ ".claude-plugin/plugin.json": '{"name":"pinned"}', "commands/hello.md": text });
    env.github.add({ full_name: "acme/pinned", stars: 10, files: files("---\ndescription: Says hello\n---\nHello") });
    published(await refresh());
    const { url } = env.serve();
    const at = async () =>
      (await json(url, "/api/v1/plugins/acme/pinned?include=contents")).body.data.plugin.contents?.commit as string;
    const approved = await at();
    expect(approved).toMatch(/^[0-9a-f]{40}$/);
    writePolicy(`allow:\n  - repo: acme/pinned\n    commit: ${approved}\n`);
    env.github.repos.update("acme/pinned", { files: files("---\ndescription: Says hello again\n---\nHello") });
    published(await refresh());
    const [row] = policyRows();
    expect(row!.rule).toBeNull();
    const newer = JSON.parse(row!.newer!);
    expect(newer.details.contents.commit).not.toBe(approved);
    const store = env.serve();
    expect(
      (await json(store.url, "/api/v1/plugins/acme/pinned?include=contents")).body.data.plugin.contents.commit,
    ).toBe(approved);
  });
});

describe("a bad policy", () => {
  test("fails the run before it publishes, naming the file and the line; the snapshot stays byte for byte", async () => {
    seed();
    writePolicy("allow:\n  - owner: org\nrequire:\n  scorecard_min: 11\n");
    const before = env.bytes();
    const error = await refresh().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PolicyError);
    expect((error as Error).message).toBe(`${policyPath()}:4:18: require.scorecard_min must be a number from 0 to 10`);
    expect(env.bytes().equals(before)).toBe(true);
  });

  test("by hand: POLICY_FILE names it, and the job exits non-zero with the line", async () => {
    seed();
    writePolicy("allow:\n  - owner: org\n  - owner: \n");
    const before = env.bytes();
    const run = await within(spawnRefresh(env, { POLICY_FILE: policyPath() }).done(), 20_000, "the refresh");
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`Invalid policy: ${policyPath()}:3:12: owner must be a string\n`);
    expect(env.bytes().equals(before)).toBe(true);
  });
});

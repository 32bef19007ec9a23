/**
 * Served marketplaces pinned to what the refresh read: the commit the GraphQL fetch names as the
 * default branch's head (read in the same query as the manifests) is kept with the contents, and
 * each served entry of that repository carries it as `sha`; a head that is no full SHA-1 pins nothing.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { headOf, marketplaceManifest } from "../fakes/github-repos";
import { Env, published } from "./support";

let env: Env | undefined;
afterEach(async () => {
  await env?.stop();
  env = undefined;
});

const NOW = new Date("2026-11-22T12:00:00.000Z");
type Served = { name: string; source: { source: string; sha?: string } };

function files(version: string): Record<string, string> {
  return {
    ".claude-plugin/marketplace.json": marketplaceManifest("acme-tools", ["./", "./plugins/lint"]),
    "plugins/lint/.claude-plugin/plugin.json": JSON.stringify({ name: "acme-tools-1", version }),
  };
}

async function served(e: Env): Promise<Served[]> {
  const { url } = e.serve();
  const doc = (await (await fetch(`${url}/market/claude/marketplace.json`)).json()) as { plugins: Served[] };
  return doc.plugins;
}

describe("served marketplaces pinned to the commit the refresh read", () => {
  test("every entry of a repository carries its head commit as sha, and a later push moves it", async () => {
    env = new Env({ repositories: ["acme/tools"] });
    env.github.add({ full_name: "acme/tools", topics: ["claude-code-plugin"], files: files("1.0.0") });
    published(await env.refresh({ now: () => NOW }));
    const first = headOf(files("1.0.0"));
    const entries = await served(env);
    expect(entries.map((p) => p.source.source)).toEqual(["url", "git-subdir"]);
    expect(entries.map((p) => p.source.sha)).toEqual([first, first]);

    env.github.repos.update("acme/tools", { files: files("1.1.0"), pushed_at: "2026-11-23T00:00:00Z" });
    published(await env.refresh({ now: () => new Date("2026-11-23T12:00:00.000Z") }));
    const again = await served(env);
    expect(again.map((p) => p.source.sha)).toEqual([headOf(files("1.1.0")), headOf(files("1.1.0"))]);
    expect(headOf(files("1.1.0"))).not.toBe(first);
  });

  for (const head of ["ABCDEF0123456789ABCDEF0123456789ABCDEF01", "abc", { oid: "x" }, null])
    test(`a head of ${JSON.stringify(head)} pins nothing, and the entries are still served`, async () => {
      env = new Env({ repositories: ["acme/tools"] });
      env.github.add({ full_name: "acme/tools", topics: ["claude-code-plugin"], files: files("1.0.0"), head });
      published(await env.refresh({ now: () => NOW }));
      const entries = await served(env);
      expect(entries).toHaveLength(2);
      expect(entries.every((p) => p.source.sha === undefined)).toBe(true);
    });
});

/**
 * What refreshing 1,000 known repositories costs on the platform, measured against the fake with
 * the real discovery rules (db/discovery.json). `bun test test/jobs/calls.test.ts` prints the figures.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { DB_DIR } from "../../src/catalog/model/editorial";
import { loadDiscoveryRules } from "../../src/refresh/discover/discovery-rules";
import type { RunReport } from "../../src/refresh/run";
import { Env, published } from "./support";

let env: Env;
afterEach(() => env.stop());

const KNOWN = 1000;
const NOW = new Date("2026-11-22T12:00:00.000Z");
const LATER = new Date("2026-11-23T12:00:00.000Z");

/** The rules' explicit repositories and quiet ones the searches do not match: every one must be fetched. */
function seedKnown(): void {
  const explicit = loadDiscoveryRules(DB_DIR).repositories;
  const names = [...explicit, ...Array.from({ length: KNOWN - explicit.length }, (_, i) => `org${i % 37}/plugin-${i}`)];
  for (const [i, full_name] of names.entries())
    env.github.add({ full_name, stars: i, pushed_at: "2026-05-01T00:00:00Z" });
  env.publishFake();
}

function figures(label: string, report: RunReport): string {
  const u = report.usage;
  return `${label}: ${u.total} calls (${u.callsText()})`;
}

const rules = loadDiscoveryRules(DB_DIR);
/** One contents call per curated list and named marketplace, on every run. */
const LISTINGS = rules.lists.length + rules.marketplaces.length;

describe(`refreshing ${KNOWN} known repositories`, () => {
  test("with a token costs one call per rule and listing and one GraphQL query per 100 repositories", async () => {
    env = new Env();
    env.github.setRemaining("search", 1000);
    seedKnown();
    const first = published(await env.refresh({ dataDir: DB_DIR, now: () => NOW }));
    const later = published(await env.refresh({ dataDir: DB_DIR, now: () => LATER }));
    console.log(figures("with a token, first run (full discovery)", first));
    console.log(figures("with a token, later run (incremental discovery)", later));
    const searches = rules.searches.length;
    expect(first.usage.calls).toEqual({
      search: searches,
      code: rules.code.length,
      graphql: KNOWN / 100,
      rest: LISTINGS,
      conditional: 0,
    });
    // Code searches wait for the next full run; known repositories are fetched again, 100 a query.
    expect(later.usage.calls).toEqual({
      search: searches,
      code: 0,
      graphql: KNOWN / 100,
      rest: LISTINGS,
      conditional: 0,
    });
    expect(later.usage.graphqlPoints).toBe(KNOWN / 100);
  });

  test("without a token takes one REST call per repository, and a later run's are all free 304s", async () => {
    env = new Env();
    seedKnown();
    env.github.setRemaining("core", 5000);
    // Anonymous search allows 10 a minute, fewer than the rules: waiting for the next minute is another test's subject.
    env.github.setRemaining("search", 1000);
    const first = published(await env.refresh({ token: undefined, dataDir: DB_DIR, now: () => NOW }));
    env.github.setRemaining("core", 5000);
    env.github.setRemaining("search", 1000);
    const later = published(await env.refresh({ token: undefined, dataDir: DB_DIR, now: () => LATER }));
    console.log(figures("without a token, first run (no ETags yet)", first));
    console.log(figures("without a token, later run (ETags kept)", later));
    // Lists and marketplaces are read with a token only.
    expect(first.usage.calls.rest).toBe(KNOWN);
    expect(later.usage.calls.conditional).toBe(KNOWN);
    expect(later.usage.calls.rest).toBe(0);
  }, 60_000);
});

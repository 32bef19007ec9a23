import { describe, expect, test } from "bun:test";
import type { Found } from "../../src/refresh/discover/discover";
import type { Outcome } from "../../src/refresh/fetch/outcome";
import { decideCandidates, type RunDecisions } from "../../src/refresh/validate/decisions";
import { TEST_EVIDENCE } from "./support";

const AT = "2026-11-22T12:00:00.000Z";

function run(found: Found[], outcomes: Record<string, Outcome>, reasons: RunDecisions["reasons"]): RunDecisions {
  return {
    previous: {
      snapshotAt: null,
      plugins: new Map(),
      events: [],
      snapshots: [],
      editorialIds: {},
      candidates: [],
      policyRecords: new Map(),
      served: new Set(),
    },
    rules: {
      fullEveryDays: 7,
      evidence: TEST_EVIDENCE,
      searches: [],
      code: [],
      marketplaces: [],
      lists: [],
      repositories: [],
    },
    editorial: { categories: [], curated: [], overrides: {} },
    discovery: { found: new Map(found.map((f) => [f.id.toLowerCase(), f])), state: {}, capped: [] },
    asked: Object.keys(outcomes),
    outcomeOf: (key) => outcomes[key],
    reasons,
    replaced: new Set(),
    invalidFacts: new Set(),
    excludedByOwner: new Set(),
    records: [],
    snapshotAt: AT,
  };
}

const facts = (full_name: string) => ({
  full_name,
  description: null,
  homepage: null,
  stars: 3,
  forks: 0,
  language: null,
  license: null,
  archived: false,
  created_at: "2026-01-01T00:00:00Z",
  pushed_at: "2026-01-01T00:00:00Z",
  topics: ["mcp-server"],
});

describe("decideCandidates", () => {
  test("a repository a source's cap left out before it was fetched is recorded with the rules that found it", () => {
    const capped: Found = { id: "Acme/Capped", facts: null, rules: ["code filename:plugin.json"], listed: [] };
    const decisions = decideCandidates(run([capped], {}, new Map([["acme/capped", "over_source_cap"]])));
    expect(decisions).toEqual([
      {
        id: "Acme/Capped",
        repo_id: null,
        decision: "over_source_cap",
        found_by: ["code filename:plugin.json"],
        evidence: null,
        stars: null,
        current_id: null,
        checked_at: AT,
      },
    ]);
  });

  test("a repository left out for no reason this module knows gets no decision rather than a wrong one", () => {
    const held: Found = { id: "acme/held", facts: null, rules: ["search topic:mcp-server"], listed: [] };
    const outcome: Outcome = { kind: "fetched", facts: facts("acme/held"), etag: null, files: [] };
    expect(decideCandidates(run([held], { "acme/held": outcome }, new Map()))).toEqual([]);
    const reasons = new Map([["acme/held", "held_for_review" as const]]);
    const [decision] = decideCandidates(run([held], { "acme/held": outcome }, reasons));
    expect(decision).toMatchObject({ id: "acme/held", decision: "held_for_review", stars: 3 });
    expect(decision!.evidence).toEqual({
      listed_by: [],
      editors: false,
      topics: ["mcp-server"],
      files: [],
      files_checked: true,
    });
  });
});

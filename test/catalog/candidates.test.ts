import { describe, expect, test } from "bun:test";
import { type CandidateDecision, carryCandidates, listingRulesOf } from "../../src/catalog/model/candidates";
import { nextRefresh } from "../../src/scheduler/next";

function decision(id: string, checked_at: string, fields: Partial<CandidateDecision> = {}): CandidateDecision {
  return {
    id,
    repo_id: null,
    decision: "no_evidence",
    found_by: [],
    evidence: null,
    stars: 1,
    current_id: null,
    checked_at,
    ...fields,
  };
}

describe("carryCandidates", () => {
  const AT = "2026-11-22T00:00:00.000Z";

  test("this run's decisions replace earlier ones (ids case aside); the rest are carried, newest first", () => {
    const previous = [
      decision("acme/a", "2026-11-01T00:00:00.000Z"),
      decision("acme/b", "2026-11-10T00:00:00.000Z"),
      decision("Acme/C", "2026-11-05T00:00:00.000Z"),
    ];
    const carried = carryCandidates(previous, [decision("acme/c", AT, { decision: "published" })], AT);
    expect(carried.map((d) => [d.id, d.decision, d.checked_at])).toEqual([
      ["acme/c", "published", AT],
      ["acme/b", "no_evidence", "2026-11-10T00:00:00.000Z"],
      ["acme/a", "no_evidence", "2026-11-01T00:00:00.000Z"],
    ]);
  });

  test("a decision older than 90 days is dropped; past the cap the oldest go first", () => {
    const previous = [
      decision("acme/old", "2026-08-23T23:59:59.999Z"),
      decision("acme/edge", "2026-08-24T00:00:00.000Z"),
      decision("acme/newer", "2026-11-01T00:00:00.000Z"),
    ];
    expect(carryCandidates(previous, [], AT).map((d) => d.id)).toEqual(["acme/newer", "acme/edge"]);
    expect(carryCandidates(previous, [decision("acme/now", AT)], AT, 2).map((d) => d.id)).toEqual([
      "acme/now",
      "acme/newer",
    ]);
  });
});

describe("listingRulesOf", () => {
  test("reads the star floors, the topics searched without one and the files code-searched for", () => {
    const rules = listingRulesOf({
      evidence: {
        topics: ["claude-code-plugin", "mcp-server"],
        files: [
          { path: ".claude-plugin/plugin.json", note: "a manifest" },
          { path: "SKILL.md", note: "a skill" },
        ],
        folders: [{ path: "skills" }],
        dependencies: [{ file: "package.json", name: "@modelcontextprotocol/sdk" }],
      },
      searches: [
        { query: "topic:claude-code-plugin" },
        { query: "topic:mcp-server stars:>=100" },
        { query: '"claude code" in:name,description stars:>19' },
        { query: "topic:unrelated" },
      ],
      code: [{ query: "filename:plugin.json path:.claude-plugin" }, { query: "filename:README.md" }],
      lists: [{ repository: "acme/awesome" }],
      marketplaces: [{ repository: "acme/market" }, { repository: "acme/awesome" }],
    });
    expect(rules).toEqual({
      topics: ["claude-code-plugin", "mcp-server"],
      files: [
        { path: ".claude-plugin/plugin.json", note: "a manifest" },
        { path: "SKILL.md", note: "a skill" },
      ],
      folders: ["skills/"],
      dependencies: ["package.json: @modelcontextprotocol/sdk"],
      floors: [
        { query: "topic:mcp-server stars:>=100", stars: 100 },
        { query: '"claude code" in:name,description stars:>19', stars: 20 },
      ],
      listings: ["acme/awesome", "acme/market"],
      findable: { topics: ["claude-code-plugin"], files: [".claude-plugin/plugin.json"] },
    });
  });
});

describe("nextRefresh", () => {
  test("is the schedule's next tick after now, read again once it has passed; null when off", () => {
    let now = new Date("2026-11-22T12:07:00.000Z");
    // Every quarter hour falls on a quarter hour in UTC whatever the local zone's offset.
    const next = nextRefresh("*/15 * * * *", () => now);
    expect(next()).toBe("2026-11-22T12:15:00.000Z");
    now = new Date("2026-11-22T12:15:00.000Z");
    expect(next()).toBe("2026-11-22T12:30:00.000Z");
    expect(nextRefresh(null)()).toBeNull();
  });
});

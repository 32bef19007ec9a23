/**
 * A refresh against the fake platform remembers what it decided about every candidate, and the
 * listing and badge endpoints answer an author from it, exactly.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { Env, published, record, TEST_EVIDENCE } from "./support";

let env: Env;
afterEach(() => env.stop());

const NOW = "2026-11-22T12:00:00.000Z";
const PHRASE = '"claude code" in:name,description stars:>=20';
const TOPIC = "topic:claude-code-plugin";
const ACCEPTED_FILES = [
  ...TEST_EVIDENCE.files.map((f) => f.path),
  "skills/",
  ".claude/commands/",
  "package.json: @modelcontextprotocol/sdk",
  "pyproject.toml: mcp",
  "requirements.txt: fastmcp",
  "go.mod: github.com/mark3labs/mcp-go",
  "Cargo.toml: rmcp",
];
const FILES_TO_ADD =
  "add `.claude-plugin/plugin.json`, `.claude-plugin/marketplace.json`, `server.json` or `SKILL.md` at the repository's root, " +
  "keep your skills or commands in `skills/` or `.claude/commands/`, " +
  "depend on an MCP SDK (`@modelcontextprotocol/sdk`, `mcp` or `fastmcp`, …) " +
  "or give it the topic `mcp-server`, `agent-skills` or `claude-code-plugin`";

async function listing(url: string, id: string) {
  const response = await fetch(`${url}/api/v1/listing/${id}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: Record<string, unknown> }).data;
}

/** The fake's repositories: one of each fate, and a published plugin that is then renamed. */
async function refreshed() {
  env = new Env({
    searches: [{ query: TOPIC }, { query: PHRASE }],
    repositories: ["acme/missing"],
    overrides: { "acme/banned": { exclude: true } },
  });
  env.github.add(
    {
      full_name: "acme/listed",
      description: "claude code helper",
      stars: 30,
      files: { ".claude-plugin/plugin.json": "{}" },
    },
    { full_name: "acme/plain", description: "claude code notes", stars: 40, topics: ["productivity"] },
    { full_name: "acme/small", description: "claude code tiny tool", stars: 5 },
    { full_name: "acme/banned", description: "claude code thing", stars: 50, topics: ["claude-code-plugin"] },
    { full_name: "acme/old-name", stars: 12 },
  );
  env.publish([record("acme/old-name", { stars: 12 })]);
  env.github.repos.rename("acme/old-name", "neworg/new-name");
  return published(await env.refresh({ now: () => new Date(NOW) }));
}

describe("after a refresh, /api/v1/listing answers each repository exactly", () => {
  test("a listed plugin, one without evidence, one below the star floor, one excluded, one renamed", async () => {
    const report = await refreshed();
    expect(report.summary!.added).toEqual(["acme/listed"]);
    const { url } = env.serve();
    const badge = (id: string) =>
      `[![Plugin Catalog](http://catalog.test/badge/${id}.svg)](http://catalog.test/plugin/${id})`;

    expect(await listing(url, "acme/listed")).toEqual({
      id: "acme/listed",
      status: "listed",
      reason: null,
      current_id: null,
      found_by: [`search ${PHRASE}`],
      evidence_checked: {
        listed_by: [],
        editors: false,
        topics: { accepted: TEST_EVIDENCE.topics, found: [] },
        files: { checked: true, accepted: ACCEPTED_FILES, found: [".claude-plugin/plugin.json"] },
      },
      last_checked_at: NOW,
      next_check_at: null,
      advice: `Listed. Show it in a README with ${badge("acme/listed")}`,
      generatedAt: NOW,
    });

    expect(await listing(url, "acme/plain")).toEqual({
      id: "acme/plain",
      status: "rejected",
      reason: "no_evidence",
      current_id: null,
      found_by: [`search ${PHRASE}`],
      evidence_checked: {
        listed_by: [],
        editors: false,
        topics: { accepted: TEST_EVIDENCE.topics, found: [] },
        files: { checked: true, accepted: ACCEPTED_FILES, found: [] },
      },
      last_checked_at: NOW,
      next_check_at: null,
      advice: `Found, but nothing showed it is a plugin: ${FILES_TO_ADD}; it is checked again at the next refresh.`,
      generatedAt: NOW,
    });

    expect(await listing(url, "acme/small")).toEqual({
      id: "acme/small",
      status: "unseen",
      reason: null,
      current_id: null,
      found_by: [],
      evidence_checked: null,
      last_checked_at: null,
      next_check_at: null,
      advice:
        "No refresh has met this repository; the keyword searches look only at repositories with at least 20 stars. " +
        "To be found at any star count, give it the topic `claude-code-plugin`. " +
        `Once found, it is listed with evidence: ${FILES_TO_ADD}. The next refresh looks again.`,
      generatedAt: NOW,
    });

    expect(await listing(url, "acme/banned")).toEqual({
      id: "acme/banned",
      status: "rejected",
      reason: "excluded",
      current_id: null,
      found_by: [`search ${TOPIC}`, `search ${PHRASE}`],
      evidence_checked: {
        listed_by: [],
        editors: false,
        topics: { accepted: TEST_EVIDENCE.topics, found: ["claude-code-plugin"] },
        files: { checked: true, accepted: ACCEPTED_FILES, found: [] },
      },
      last_checked_at: NOW,
      next_check_at: null,
      advice: "The catalog's editors excluded it (an override in their data); only they can take it back, so ask them.",
      generatedAt: NOW,
    });

    const renamed = {
      id: "neworg/new-name",
      status: "listed",
      reason: null,
      current_id: "neworg/new-name",
      found_by: [],
      evidence_checked: {
        listed_by: [],
        editors: false,
        topics: { accepted: TEST_EVIDENCE.topics, found: [] },
        files: { checked: true, accepted: ACCEPTED_FILES, found: [] },
      },
      last_checked_at: NOW,
      next_check_at: null,
      advice: `Listed under its new name neworg/new-name. Show it in a README with ${badge("neworg/new-name")}`,
      generatedAt: NOW,
    };
    expect(await listing(url, "acme/old-name")).toEqual(renamed);
    expect(await listing(url, "neworg/new-name")).toEqual({
      ...renamed,
      current_id: null,
      advice: `Listed. Show it in a README with ${badge("neworg/new-name")}`,
    });
  });

  test("a repository the platform does not know is not_found, with what to change", async () => {
    await refreshed();
    const { url } = env.serve();
    expect(await listing(url, "acme/missing")).toEqual({
      id: "acme/missing",
      status: "rejected",
      reason: "not_found",
      current_id: null,
      found_by: ["repositories"],
      evidence_checked: null,
      last_checked_at: NOW,
      next_check_at: null,
      advice:
        "The platform does not show it (deleted, private, or a misspelt link named it): make it public; it is checked again at the next refresh.",
      generatedAt: NOW,
    });
  });

  test("a renamed plugin's former id gets the listed badge itself, not a redirect", async () => {
    await refreshed();
    const { url } = env.serve();
    for (const id of ["acme/old-name", "neworg/new-name", "ACME/Old-Name"]) {
      const json = await fetch(`${url}/badge/${id}.json`, { redirect: "manual" });
      expect([id, json.status]).toEqual([id, 200]);
      expect(await json.json()).toEqual({
        schemaVersion: 1,
        label: "plugin catalog",
        message: "listed",
        color: "brightgreen",
      });
      const svg = await fetch(`${url}/badge/${id}.svg`, { redirect: "manual" });
      expect(svg.status).toBe(200);
      expect(await svg.text()).toContain("<title>plugin catalog: listed</title>");
    }
    for (const id of ["acme/plain", "acme/small", "acme/banned"]) {
      const json = await (await fetch(`${url}/badge/${id}.json`)).json();
      expect([id, json]).toEqual([
        id,
        { schemaVersion: 1, label: "plugin catalog", message: "not listed", color: "lightgrey" },
      ]);
    }
  });

  test("decisions are carried to the next snapshot, replaced when a repository is met again", async () => {
    await refreshed();
    // Adding the file is a push, so the incremental search meets it again.
    env.github.repos.update("acme/plain", { files: { "SKILL.md": "# A skill" }, pushed_at: "2026-11-23T00:00:00Z" });
    const later = "2026-11-23T12:00:00.000Z";
    const report = published(await env.refresh({ now: () => new Date(later) }));
    expect(report.summary!.added).toEqual(["acme/plain"]);
    const { url } = env.serve();
    expect(await listing(url, "acme/plain")).toMatchObject({ status: "listed", last_checked_at: later });
    // Not pushed since, so the incremental searches did not meet it: the earlier decision is carried.
    expect(await listing(url, "acme/banned")).toMatchObject({
      status: "rejected",
      reason: "excluded",
      last_checked_at: NOW,
    });
  });
});

describe("the source caps' reasons reach the listing", () => {
  /** `count` repositories without any evidence, linked from one curated list; `known` plugins published before. */
  function listed(count: number, vouches: number, known = 0): string[] {
    env = new Env({ lists: [{ repository: "big/list", path: "README.md", vouches }] });
    for (let i = 0; i < known; i++) env.github.add({ full_name: `known/p${i}`, topics: ["mcp-server"] });
    if (known > 0) env.publishFake();
    const ids = Array.from({ length: count }, (_, i) => `many/r${i}`);
    for (const id of ids) env.github.add({ full_name: id, description: "Buy cheap followers" });
    const links = ids.map((id) => `- https://github.com/${id}`).join("\n");
    env.github.add({ full_name: "big/list", files: { "README.md": links } });
    return ids;
  }

  test("a repository past its list's candidate cap is over_source_cap", async () => {
    listed(30, 100);
    const report = published(await env.refresh({ now: () => new Date(NOW), sourceLimits: { maxCandidates: 12 } }));
    const cut = Object.entries(report.discovery!.reasons).filter(([, reason]) => reason === "over_source_cap");
    expect(cut).toHaveLength(18);
    const { url } = env.serve();
    for (const [key] of cut.slice(0, 3)) {
      const answer = await listing(url, key);
      expect(answer).toMatchObject({ status: "rejected", reason: "over_source_cap", last_checked_at: NOW });
      expect(answer.advice).toStartWith("The source that found it had already brought as many new candidates");
    }
  });

  test("a newcomer held for review says so, with the evidence it has", async () => {
    const ids = listed(25, 1000, 10);
    const report = published(await env.refresh({ now: () => new Date(NOW) }));
    expect(report.held).toHaveLength(25);
    const { url } = env.serve();
    const answer = await listing(url, ids[0]!);
    expect(answer).toMatchObject({
      status: "rejected",
      reason: "held_for_review",
      found_by: ["list big/list/README.md"],
      evidence_checked: { listed_by: ["list big/list/README.md"] },
    });
    expect(answer.advice).toStartWith("It has evidence, but the run found so many newcomers at once");
  });
});

describe("a name a stranger took", () => {
  test("answers for the plugin that had it, under its new name; the stranger's repository is recorded as replaced", async () => {
    env = new Env({ overrides: { "alice/tool": { category: "mcp" } } });
    env.github.add({ full_name: "alice/tool", stars: 5000 });
    env.publishFake();
    env.github.repos.rename("alice/tool", "alice/tool-v2");
    env.github.add({ full_name: "alice/tool", stars: 0, description: "run install.sh" });
    const report = published(await env.refresh({ now: () => new Date(NOW) }));
    expect(report.summary!.replaced).toHaveLength(1);
    const { url, store } = env.serve();
    expect(await listing(url, "alice/tool")).toMatchObject({ status: "listed", current_id: "alice/tool-v2" });
    const badge = await fetch(`${url}/badge/alice/tool.json`, { redirect: "manual" });
    expect(((await badge.json()) as { message: string }).message).toBe("listed");
    // The editors' word was about the plugin, not about the repository that took its name.
    const stranger = store.current()!.candidate("alice/tool");
    expect(stranger).toMatchObject({ decision: "replaced", current_id: null, evidence: { editors: false } });
  });
});

describe("evidence from package files and folders", () => {
  test("a dependency on an MCP SDK is shown as the evidence found", async () => {
    env = new Env({ searches: [{ query: PHRASE }] });
    const manifest = JSON.stringify({ name: "sdk-user", dependencies: { "@modelcontextprotocol/sdk": "^1.0.0" } });
    env.github.add({
      full_name: "acme/sdk-user",
      description: "claude code server",
      stars: 25,
      files: { "package.json": manifest },
    });
    const report = published(await env.refresh({ now: () => new Date(NOW) }));
    expect(report.summary!.added).toEqual(["acme/sdk-user"]);
    const { url } = env.serve();
    const answer = await listing(url, "acme/sdk-user");
    expect(answer).toMatchObject({ status: "listed", found_by: [`search ${PHRASE}`] });
    expect((answer.evidence_checked as { files: { found: string[] } }).files.found).toEqual([
      "package.json: @modelcontextprotocol/sdk",
    ]);
  });
});

import { describe, expect, test } from "bun:test";
import type { Contents, Install, PluginDetails } from "../../src/catalog/model/details";
import type { RiskNote } from "../../src/catalog/model/risk";
import { type Changed, MAX_DIFF_ITEMS, updateDiff } from "../../src/catalog/model/update-diff";
import { carryUpdates, markUpdated, validUpdate } from "../../src/catalog/model/update-history";
import { plugin } from "../helpers";

const T0 = "2026-11-01T00:00:00.000Z";
const T1 = "2026-11-02T00:00:00.000Z";
const T2 = "2026-11-03T00:00:00.000Z";
const C0 = "a".repeat(40);
const C1 = "b".repeat(40);

function contents(fields: Partial<Contents> = {}): Contents {
  const c = { skills: [], commands: [], agents: [], hooks: [], mcp_servers: [], plugins: [], ...fields };
  return {
    ...c,
    counts: {
      skills: c.skills.length,
      commands: c.commands.length,
      agents: c.agents.length,
      hooks: c.hooks.length,
      mcp_servers: c.mcp_servers.length,
      plugins: c.plugins.length,
    },
  } as Contents;
}

function details(fields: Partial<PluginDetails> = {}, c: Partial<Contents> = {}): PluginDetails {
  return {
    contents: contents(c),
    install: [],
    works_with: ["claude-code"],
    fork_of: null,
    deprecated: false,
    latest_release: null,
    ...fields,
  };
}

const npm = (spec: string): Install => ({
  harness: "mcp",
  kind: "npm",
  config: { mcpServers: { kit: { command: "npx", args: ["-y", spec] } } },
  env: [],
  from: "server.json",
});
const note = (rule: RiskNote["rule"], file: string): RiskNote => ({ rule, file, line: 3, excerpt: `${rule} here` });
const changed = (diff: Changed | null): Changed => {
  if (diff === null) throw new Error("expected a diff");
  return diff;
};

describe("updateDiff", () => {
  test("a hook event added is shown as a hook, with both commits, and no version bump flagged", () => {
    const diff = changed(
      updateDiff(
        details({}, { hooks: ["Stop"], commit: C0 }),
        details({}, { hooks: ["Stop", "SessionStart"], commit: C1 }),
        T1,
        T0,
      ),
    );
    expect(diff.added.hooks).toEqual(["SessionStart"]);
    expect(diff.removed.hooks).toEqual([]);
    expect(diff.counts.added.hooks).toBe(1);
    expect(diff.from).toEqual({ commit: C0, version: null });
    expect(diff.to).toEqual({ commit: C1, version: null });
    expect(diff.version_unchanged).toBe(true);
    expect([diff.at, diff.since]).toEqual([T1, T0]);
  });

  test("an MCP server added and one removed, under a server.json version that moved", () => {
    const registry = (version: string) => ({ name: "io.github.kit/db", version });
    const diff = changed(
      updateDiff(
        details({ mcp_registry: registry("1.0.0") }, { mcp_servers: ["db"] }),
        details({ mcp_registry: registry("1.1.0") }, { mcp_servers: ["cache"] }),
        T1,
        T0,
      ),
    );
    expect(diff.added.mcp_servers).toEqual(["cache"]);
    expect(diff.removed.mcp_servers).toEqual(["db"]);
    expect([diff.from.version, diff.to.version]).toEqual(["1.0.0", "1.1.0"]);
    expect(diff.version_unchanged).toBe(false);
  });

  test("a new risk note is shown by rule and place; a note only moved to another line is not new", () => {
    const moved = { ...note("sudo", "hooks/a.sh"), line: 9 };
    const diff = changed(
      updateDiff(
        details({ risk: [note("sudo", "hooks/a.sh")] }),
        details({ risk: [moved, note("pipe-to-shell", "hooks/b.sh")] }),
        T1,
        T0,
      ),
    );
    expect(diff.risk_added).toEqual([{ rule: "pipe-to-shell", file: "hooks/b.sh", line: 3 }]);
    expect(diff.counts.risk_added).toBe(1);
  });

  test("a package whose version changed is one package change, besides its lines added and removed", () => {
    const diff = changed(
      updateDiff(details({ install: [npm("@kit/db@1.0.0")] }), details({ install: [npm("@kit/db@1.1.0")] }), T1, T0),
    );
    expect(diff.packages).toHaveLength(1);
    expect(diff.packages[0]).toMatchObject({ harness: "mcp", kind: "npm", from: "server.json" });
    expect(diff.packages[0]!.before).toContain("@kit/db@1.0.0");
    expect(diff.packages[0]!.after).toContain("@kit/db@1.1.0");
    expect([diff.counts.install_added, diff.counts.install_removed]).toEqual([1, 1]);
  });

  test("the context cost's delta", () => {
    const context = (always_on: number) => ({
      components: [],
      always_on,
      mcp_tools: 0 as const,
      complete: true,
      method: "m",
    });
    const diff = changed(updateDiff(details({ context: context(120) }), details({ context: context(80) }), T1, T0));
    expect(diff.context).toEqual({ before: 120, after: 80, delta: -40 });
  });

  test("nothing changed is no diff, whatever the commit; a release alone is a version bump", () => {
    expect(updateDiff(details({}, { commit: C0 }), details({}, { commit: C1 }), T1, T0)).toBeNull();
    const release = (tag: string) => ({ tag, date: "2026-11-01T00:00:00Z" });
    const bump = changed(
      updateDiff(details({ latest_release: release("v1") }), details({ latest_release: release("v2") }), T1, T0),
    );
    expect([bump.from.version, bump.to.version, bump.version_unchanged]).toEqual(["v1", "v2", false]);
  });

  test("is bounded on a hostile record: thousands of components give capped lists with the true counts", () => {
    const many = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}-${i}`);
    const lines = Array.from({ length: 3000 }, (_, i) => npm(`@kit/p${i}@1.0.${i}`));
    const diff = changed(
      updateDiff(
        details(),
        details(
          { install: lines, risk: Array.from({ length: 3000 }, (_, i) => note("sudo", `f${i}`)) },
          { commands: many("c", 5000), hooks: many("h", 5000), mcp_servers: many("s", 5000) },
        ),
        T1,
        T0,
      ),
    );
    expect(diff.added.commands).toHaveLength(MAX_DIFF_ITEMS);
    expect(diff.added.hooks).toHaveLength(MAX_DIFF_ITEMS);
    expect(diff.install.added).toHaveLength(MAX_DIFF_ITEMS);
    expect(diff.risk_added).toHaveLength(MAX_DIFF_ITEMS);
    expect(diff.counts.added.commands).toBe(5000);
    expect(diff.counts.install_added).toBe(3000);
    expect(diff.counts.risk_added).toBe(3000);
    expect(JSON.stringify(diff).length).toBeLessThan(64 * 1024);
    // What is stored passes the schema it is read back with.
    expect(validUpdate(JSON.stringify(diff))).toEqual(diff);
  });
});

describe("carryUpdates", () => {
  const kit = (d: PluginDetails | null, fields = {}) => plugin("kit/plugin", { details: d, ...fields });

  test("a catalog built from scratch has no updates; a plugin's first appearance is new", () => {
    expect(carryUpdates({ snapshotAt: null, plugins: new Map() }, [kit(details())], T1).size).toBe(0);
    const updates = carryUpdates({ snapshotAt: T0, plugins: new Map() }, [kit(details({}, { commit: C1 }))], T1);
    expect(updates.get("kit/plugin")).toEqual({ kind: "new", at: T1, since: T0, to: { commit: C1, version: null } });
  });

  test("an unchanged plugin keeps its last update; an update replaces it; a renamed one is compared under its old id", () => {
    const last = changed(updateDiff(details(), details({}, { hooks: ["Stop"] }), T1, T0));
    const previous = {
      snapshotAt: T1,
      plugins: new Map([
        ["kit/plugin", { details: details({}, { hooks: ["Stop"] }), lastUpdate: last }],
        ["kit/steady", { details: details(), lastUpdate: null }],
        ["old/name", { details: details(), lastUpdate: null }],
      ]),
    };
    const records = [
      kit(details({}, { hooks: ["Stop"] })),
      plugin("kit/steady", { details: details() }),
      plugin("new/name", { details: details({}, { agents: ["a"] }), previous_ids: ["old/name"] }),
    ];
    const updates = carryUpdates(previous, records, T2);
    expect(updates.get("kit/plugin")).toEqual(last);
    expect(updates.has("kit/steady")).toBe(false);
    expect(updates.get("new/name")).toMatchObject({ kind: "changed", at: T2, added: { agents: ["a"] } });
    const history = {
      changedAt: new Map([
        ["kit/plugin", T0],
        ["new/name", T0],
        ["kit/steady", T0],
      ]),
      events: [],
      snapshots: [],
    };
    markUpdated(history, updates, T2);
    expect([...history.changedAt.keys()]).toEqual(["kit/plugin", "kit/steady"]);
  });

  test("a stored update that fails its schema is not trusted", () => {
    expect(validUpdate(`{"kind":"changed"}`)).toBeNull();
    expect(validUpdate("not json")).toBeNull();
  });
});

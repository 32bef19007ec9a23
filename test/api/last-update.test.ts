/**
 * The last update of each plugin, built into two snapshots in a row on a real SQLite file and served
 * by the real server: a risk note alone makes the plugin changed in `changes`, names from a
 * manifest are escaped on the page, and a stored update that fails its schema is not served.
 */

import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import type { PluginDetails } from "../../src/catalog/model/details";
import { carryHistory } from "../../src/catalog/model/history";
import type { PluginRecord } from "../../src/catalog/model/types";
import { carryUpdates, markUpdated } from "../../src/catalog/model/update-history";
import { readPrevious } from "../../src/catalog/snapshot/previous";
import { publishSnapshot } from "../../src/catalog/snapshot/publish";
import { Snapshot } from "../../src/catalog/snapshot/snapshot";
import { eventually, plugin, SNAPSHOT_AT, snapshotInput, startServer, type TestServer } from "../helpers";

const T1 = "2026-08-23T00:00:00.000Z";
const HOSTILE = "<img src=x onerror=alert(1)>";

function details(commands: string[], risk: PluginDetails["risk"] = []): PluginDetails {
  return {
    contents: {
      skills: [],
      commands,
      agents: [],
      hooks: [],
      mcp_servers: [],
      plugins: [],
      counts: { skills: 0, commands: commands.length, agents: 0, hooks: 0, mcp_servers: 0, plugins: 0 },
    },
    install: [],
    works_with: ["claude-code"],
    fork_of: null,
    deprecated: false,
    latest_release: null,
    risk,
  };
}

const note = { rule: "sudo" as const, file: "hooks/run.sh", line: 2, excerpt: "sudo make install" };

let server: TestServer;

beforeAll(async () => {
  server = startServer(null);
  const first: PluginRecord[] = [
    plugin("kit/tool", { stars: 5, details: details(["plan"]) }),
    plugin("kit/quiet", { stars: 4, details: details(["run"]) }),
    plugin("kit/steady", { stars: 3, details: details(["keep"]) }),
  ];
  publishSnapshot(server.path, snapshotInput(first));
  const second = [
    plugin("kit/tool", { stars: 5, details: details(["plan", HOSTILE]) }),
    plugin("kit/quiet", { stars: 4, details: details(["run"], [note]) }),
    plugin("kit/steady", { stars: 3, details: details(["keep"]) }),
  ];
  const previous = readPrevious(server.path);
  const history = carryHistory(previous, second, [], T1);
  const updates = carryUpdates(previous, second, T1);
  markUpdated(history, updates, T1);
  publishSnapshot(server.path, { ...snapshotInput(second, T1), history, updates });
  await eventually(async () => (await server.json("/market/manifest.json")).snapshotAt === T1, 10_000, "swap");
});
afterAll(() => server.stop());

describe("the last update, built at the snapshot and served", () => {
  test("a risk note alone makes the plugin changed in `changes`, with the note; an unchanged one is not there", async () => {
    const changes = await server.json(`/market/v1/changes?since=${SNAPSHOT_AT}`);
    const ids = changes.updated.map((p: { id: string }) => p.id).sort();
    expect(ids).toEqual(["kit/quiet", "kit/tool"]);
    const quiet = changes.updated.find((p: { id: string }) => p.id === "kit/quiet");
    expect(quiet.last_update.risk_added).toEqual([{ rule: "sudo", file: "hooks/run.sh", line: 2 }]);
    expect(quiet.last_update.version_unchanged).toBe(true);
    const catalog = await server.json("/market/v1/catalog.json");
    const steady = catalog.items.find((p: { id: string }) => p.id === "kit/steady");
    expect(steady.last_update).toBeNull();
  });

  test("a name from a manifest is shown escaped on the plugin page", async () => {
    const page = await (await server.get("/plugin/kit/tool")).text();
    expect(page).toContain("What the last update changed");
    expect(page).toContain("Commands added: <code>&lt;img src=x onerror=alert(1)></code>");
    expect(page).not.toContain("<img");
  });

  test("a stored update that fails its schema is neither served nor carried on", () => {
    const copy = join(server.dir, "tampered.sqlite");
    copyFileSync(server.path, copy);
    const db = new Database(copy);
    db.query(`UPDATE updates SET json = ? WHERE id = 'kit/tool'`).run(`{"kind":"changed","at":"<script>"}`);
    db.close();
    // The next build does not carry it on either: it is dropped, and said so.
    const events: string[] = [];
    const previous = readPrevious(copy, (event) => events.push(event));
    expect(previous.plugins.get("kit/tool")!.lastUpdate).toBeNull();
    expect(previous.plugins.get("kit/quiet")!.lastUpdate?.kind).toBe("changed");
    expect(events).toEqual(["previous.update_dropped"]);
    const snapshot = Snapshot.open(copy);
    try {
      expect(snapshot.lastUpdate("kit/tool")).toBeNull();
      expect(JSON.parse(snapshot.lastUpdate("kit/quiet")!).kind).toBe("changed");
    } finally {
      snapshot.close();
    }
  });
});

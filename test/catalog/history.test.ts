import { describe, expect, test } from "bun:test";
import { carryHistory, composeEvents } from "../../src/catalog/model/history";
import type { HistoryEvent } from "../../src/catalog/model/types";
import { catalogView } from "../../src/catalog/model/views";
import { plugin } from "../helpers";

const T0 = "2026-11-01T00:00:00.000Z";
const T1 = "2026-11-02T00:00:00.000Z";
const T2 = "2026-11-03T00:00:00.000Z";
const renamed = (at: string, id: string, to: string): HistoryEvent => ({ at, kind: "renamed", id, to });
const removed = (at: string, id: string): HistoryEvent => ({ at, kind: "removed", id, to: null });

describe("composeEvents", () => {
  test("a plugin renamed twice is one rename from its first id", () => {
    const events = [renamed(T1, "a/one", "a/two"), renamed(T2, "a/two", "b/Three")];
    expect(composeEvents(events, T0, new Set(["b/three"]))).toEqual({
      removed: [],
      renamed: [{ from: "a/one", to: "b/Three" }],
    });
    expect(composeEvents(events, T1, new Set(["b/three"]))).toEqual({
      removed: [],
      renamed: [{ from: "a/two", to: "b/Three" }],
    });
  });

  test("a renamed plugin later removed is a removal of the id the client holds", () => {
    const events = [renamed(T1, "a/one", "a/two"), removed(T2, "a/two")];
    expect(composeEvents(events, T0, new Set())).toEqual({ removed: ["a/one"], renamed: [] });
  });

  test("an id removed and published again is no removal; events up to `since` are ignored", () => {
    const events = [removed(T0, "a/gone"), removed(T1, "a/back")];
    expect(composeEvents(events, T0, new Set(["a/back"]))).toEqual({ removed: [], renamed: [] });
  });
});

describe("carryHistory", () => {
  test("keeps a plugin's change time while its catalog record is unchanged, and prunes past 30 days", () => {
    const same = plugin("a/same");
    const before = new Map([
      ["a/same", { catalogJson: JSON.stringify(catalogView(same)), changedAt: T0 }],
      ["a/changed", { catalogJson: JSON.stringify(catalogView(plugin("a/changed"))), changedAt: T0 }],
      ["a/gone", { catalogJson: JSON.stringify(catalogView(plugin("a/gone"))), changedAt: T0 }],
    ]);
    const old = removed("2026-09-01T00:00:00.000Z", "a/ancient");
    const history = carryHistory(
      { snapshotAt: T1, plugins: before, events: [old], snapshots: ["2026-09-01T00:00:00.000Z", T1] },
      [same, plugin("a/changed", { stars: 5 })],
      [],
      T2,
    );
    expect([...history.changedAt]).toEqual([["a/same", T0]]);
    expect(history.events).toEqual([removed(T2, "a/gone")]);
    expect(history.snapshots).toEqual([T1, T2]);
  });
});

/**
 * A seeded random catalog for order tests: few distinct star, fork and time values (so ties are
 * everywhere and the id tiebreaker decides), a small vocabulary shared by names, topics and
 * descriptions (so most searches hit every relevance tier), names differing only in case, and
 * category ids that differ only in punctuation.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PluginRecord, SnapshotInput } from "../../src/catalog/model/types";
import { buildSnapshot } from "../../src/catalog/snapshot/build";
import { Snapshot } from "../../src/catalog/snapshot/snapshot";
import { plugin, random } from "../records";

export const WORDS = [
  "mcp",
  "server",
  "servers",
  "serverless",
  "git",
  "github",
  "agent",
  "agents",
  "claude",
  "code",
  "tool",
  "tools",
  "café",
  "résumé",
  "data",
  "database",
  "hook",
  "ide",
  "search",
  "sql",
  "near",
  "and",
  "_cat",
  "curated",
];
export const CATEGORIES = ["mcp", "cli", "agents-workflows", "agentsworkflows", "skills", "other"];
const OWNERS = ["acme", "Acme-Labs", "beta", "zeta", "_x", "a"];

function words(next: () => number, count: number): string[] {
  return Array.from({ length: count }, () => WORDS[Math.floor(next() * WORDS.length)]!);
}

/** `count` plugins with unique ids (case-insensitively), drawn from `seed`. */
export function randomPlugins(count: number, seed = 7): PluginRecord[] {
  const next = random(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const seen = new Set<string>();
  const plugins: PluginRecord[] = [];
  for (let i = 0; plugins.length < count; i++) {
    const name = `${words(next, 1 + Math.floor(next() * 2)).join(pick(["-", "_", "."]))}${next() < 0.3 ? i : ""}`;
    const id = `${pick(OWNERS)}${Math.floor(next() * 40)}/${next() < 0.5 ? name : name.toUpperCase()}`;
    if (seen.has(id.toLowerCase())) continue;
    seen.add(id.toLowerCase());
    const categories = [...new Set([pick(CATEGORIES), ...(next() < 0.3 ? [pick(CATEGORIES)] : [])])];
    const day = String(1 + Math.floor(next() * 9)).padStart(2, "0");
    plugins.push(
      plugin(id, {
        // `_` separates words as a space does: the index's own use of it must not show.
        description: next() < 0.1 ? "" : words(next, Math.floor(next() * 8)).join(next() < 0.2 ? "_" : " "),
        category: categories[0]!,
        categories,
        stars: Math.floor(next() * 20),
        forks: Math.floor(next() * 5),
        language: "",
        license: "",
        archived: false,
        created_at: `2025-0${1 + Math.floor(next() * 3)}-01T00:00:00Z`,
        pushed_at: `2026-08-${day}T00:00:00Z`,
        topics:
          next() < 0.5 ? [] : words(next, 1 + Math.floor(next() * 3)).map((w) => (next() < 0.3 ? `${w}-server` : w)),
        curated: next() < 0.1,
        first_seen_at: `2026-0${1 + Math.floor(next() * 8)}-01T00:00:00.000Z`,
      }),
    );
  }
  return plugins;
}

export function randomInput(count: number, seed = 7): SnapshotInput {
  return { snapshotAt: "2026-08-22T00:00:00.000Z", plugins: randomPlugins(count, seed), categoryIds: CATEGORIES };
}

/** Builds `input` into a temporary snapshot and opens it; `close` removes it. */
export function openSnapshot(input: SnapshotInput): { snapshot: Snapshot; close: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "catalog-order-"));
  const path = join(dir, "catalog.sqlite");
  buildSnapshot(path, input);
  const snapshot = Snapshot.open(path);
  return { snapshot, close: () => (snapshot.close(), rmSync(dir, { recursive: true, force: true })) };
}

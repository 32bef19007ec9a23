/**
 * Synthetic catalogs for the benchmark, drawn from the distribution of the real data: every
 * field of a synthetic plugin is sampled from real records (names, descriptions, topics and
 * categories together from one record, so the search vocabulary is real; stars, forks, dates
 * and languages independently from others). Owners are `synthetic-…`, so a synthetic snapshot
 * can never be mistaken for the catalog. A seeded generator makes every run draw the same data.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { writeAtomically } from "../src/base/atomic-write";
import { Classifier } from "../src/catalog/model/classify";
import { CONTEXT_METHOD } from "../src/catalog/model/context-cost";
import { noDetails } from "../src/catalog/model/details";
import { carryHistory } from "../src/catalog/model/history";
import { DAY_MS, isoMillis, isoSeconds } from "../src/catalog/model/time";
import type { Category, PluginRecord, RepoFacts, SnapshotInput } from "../src/catalog/model/types";
import { buildSnapshot } from "../src/catalog/snapshot/build";
import { readPrevious } from "../src/catalog/snapshot/previous";
import { plugin, random } from "../test/records";

const ROOT = join(import.meta.dir, "..");

/** The real data: the embedded default's records. */
export function realDataPath(): string {
  return join(ROOT, "db", "plugins.json");
}

/** Records whose numbers and dates are known: the only ones fit to sample from. */
export function loadRealFacts(path = realDataPath()): { snapshotAt: string; facts: RepoFacts[] } {
  const raw = JSON.parse(readFileSync(path, "utf8")) as { snapshot_at?: string; plugins?: RepoFacts[] } | RepoFacts[];
  const all = Array.isArray(raw) ? raw : (raw.plugins ?? []);
  const snapshotAt = (!Array.isArray(raw) && raw.snapshot_at) || "2026-08-22T00:00:00.000Z";
  const facts = all.filter((f) => f.stars != null && f.forks != null && f.created_at && f.pushed_at);
  return { snapshotAt, facts };
}

function loadCategories(): Category[] {
  const path = join(ROOT, "db", "categories.json");
  if (!existsSync(path))
    return [{ id: "other", name: "Other", name_zh: "其他", description: "", topics: [], keywords: [], hints: [] }];
  return (JSON.parse(readFileSync(path, "utf8")) as { categories: Category[] }).categories;
}

export { random };

interface Template {
  name: string;
  description: string;
  topics: string[];
  categories: string[];
}

function templates(facts: RepoFacts[]): Template[] {
  const classifier = new Classifier(loadCategories());
  return facts.map((f) => ({
    name: f.full_name.split("/")[1] ?? f.full_name,
    description: f.description ?? "",
    topics: f.topics ?? [],
    categories: classifier.categorize(f),
  }));
}

function jitter(value: number, next: () => number): number {
  return Math.max(0, Math.round(value * (0.7 + 0.6 * next())));
}

/** Real words of four letters or more: what the realistic vocabulary's coined words are spliced from. */
function realWords(shapes: Template[]): string[] {
  const words = new Set<string>();
  for (const shape of shapes) {
    for (const word of `${shape.name} ${shape.topics.join(" ")} ${shape.description}`.toLowerCase().split(/[^a-z]+/)) {
      if (word.length >= 4) words.add(word);
    }
  }
  return [...words].sort();
}

export interface SyntheticOptions {
  /**
   * `realistic`: each plugin's description gains four to eight words coined from two real ones
   * (the head of one, the tail of another), and a third of the names one, so the search index has
   * the long tail of distinct terms a real catalog of that size has (about six per plugin) rather
   * than the few thousand terms of the real records repeated.
   */
  vocabulary?: "real-records" | "realistic";
}

/** `count` synthetic plugin records and their snapshot input. */
export function syntheticInput(count: number, seed = 42, options: SyntheticOptions = {}): SnapshotInput {
  const { snapshotAt, facts } = loadRealFacts();
  if (facts.length === 0) throw new Error(`no usable records in ${realDataPath()}`);
  const next = random(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const shapes = templates(facts);
  const words = options.vocabulary === "realistic" ? realWords(shapes) : [];
  const coined = () => {
    const head = pick(words);
    const tail = pick(words);
    return (
      head.slice(0, 2 + Math.floor(next() * (head.length - 1))) + tail.slice(Math.floor(next() * (tail.length - 2)))
    );
  };
  const categoryIds = loadCategories().map((c) => c.id);
  const snapshotMs = Date.parse(snapshotAt);
  const owners = Math.max(1, Math.floor(count / 4));
  const seen = new Set<string>();
  const plugins: PluginRecord[] = [];
  for (let i = 0; i < count; i++) {
    const shape = pick(shapes);
    const numbers = pick(facts);
    const dates = pick(facts);
    const owner = `synthetic-${Math.floor(next() * owners).toString(36)}`;
    // Half the names gain a word of another real name, so names are varied but real-sounding.
    let name = next() < 0.5 ? shape.name : `${shape.name}-${pick(shapes).name.split(/[-_.]/)[0]}`;
    let description = shape.description;
    if (words.length > 0) {
      if (next() < 1 / 3) name = `${name}-${coined()}`;
      const extra = Array.from({ length: 4 + Math.floor(next() * 5) }, coined);
      description = `${description}${description ? " " : ""}${extra.join(" ")}`;
    }
    let id = `${owner}/${name}`;
    if (seen.has(id.toLowerCase())) {
      name = `${name}-${i.toString(36)}`;
      id = `${owner}/${name}`;
    }
    seen.add(id.toLowerCase());
    const shift = Math.floor(next() * 30) * DAY_MS;
    const pushed = Math.min(snapshotMs, Date.parse(dates.pushed_at) + shift);
    plugins.push(
      plugin(id, {
        description,
        category: shape.categories[0] ?? "other",
        categories: shape.categories,
        stars: jitter(numbers.stars, next),
        forks: jitter(numbers.forks, next),
        language: pick(facts).language ?? "",
        license: pick(facts).license ?? "",
        archived: next() < 0.03,
        created_at: isoSeconds(Math.min(pushed, Date.parse(dates.created_at))),
        pushed_at: isoSeconds(pushed),
        topics: shape.topics,
        curated: next() < 0.02,
        first_seen_at: isoMillis(snapshotMs - Math.floor(next() * 365) * DAY_MS - Math.floor(next() * DAY_MS)),
      }),
    );
  }
  withContext(plugins, random(seed + 1));
  return { snapshotAt, plugins, categoryIds };
}

/**
 * Gives three in five plugins a measured context cost (a few skills of 10 to 300 tokens, one in
 * ten left not measured in full), from a generator of its own: every other field is drawn as before.
 */
function withContext(plugins: PluginRecord[], next: () => number): void {
  for (const record of plugins) {
    if (next() >= 0.6) continue;
    const components = Array.from({ length: 1 + Math.floor(next() * 6) }, (_, i) => ({
      kind: "skill" as const,
      name: `${record.name.slice(0, 80)}:skill-${i}`,
      always_on: 10 + Math.floor(next() * 290),
      on_invoke: 100 + Math.floor(next() * 4000),
    }));
    const context = {
      components,
      always_on: components.reduce((sum, c) => sum + c.always_on, 0),
      mcp_tools: 0 as const,
      complete: next() >= 0.1,
      method: CONTEXT_METHOD,
    };
    record.details = { ...noDetails(), works_with: ["claude-code"], context };
  }
}

/** Per publish: the share of plugins whose stars move, and how many are added, removed, renamed. */
const DRIFT = 0.3;
const CHURN = 20;
const PUBLISH_EVERY_MS = 6 * 3_600_000;

/** The next publish's records: stars drift, a few plugins come, go and are renamed. */
function nextRecords(records: PluginRecord[], step: number, snapshotAt: string, next: () => number) {
  const renamed: Array<{ from: string; to: string }> = [];
  const kept = records.slice(CHURN).map((r, i) => {
    if (i < CHURN) {
      const to = `${r.id}-v${step}`;
      renamed.push({ from: r.id, to });
      return { ...r, id: to, full_name: to, name: to.split("/")[1]!, previous_ids: [...r.previous_ids, r.id] };
    }
    return next() < DRIFT ? { ...r, stars: r.stars + 1 + Math.floor(next() * 5) } : r;
  });
  const added = records.slice(0, CHURN).map((r) => {
    const id = `${r.id}-new${step}`;
    return { ...r, id, full_name: id, name: id.split("/")[1]!, first_seen_at: snapshotAt, previous_ids: [] };
  });
  return { records: [...kept, ...added], renamed };
}

/**
 * Builds `input` at `path`, then `publishes` more snapshots six hours apart over it, each carrying
 * the history of the ones before: what `changes?since=` can reach. Returns every snapshot time and
 * the mean time of one publish after the first.
 */
export function buildHistory(path: string, input: SnapshotInput, publishes: number) {
  buildSnapshot(path, input);
  const start = Date.parse(input.snapshotAt);
  const times = [input.snapshotAt];
  let records = input.plugins;
  const next = random(7);
  const started = performance.now();
  for (let step = 1; step <= publishes; step++) {
    const snapshotAt = new Date(start + step * PUBLISH_EVERY_MS).toISOString();
    const change = nextRecords(records, step, snapshotAt, next);
    records = change.records;
    const history = carryHistory(readPrevious(path), records, change.renamed, snapshotAt);
    writeAtomically(path, (tmp) => buildSnapshot(tmp, { ...input, snapshotAt, plugins: records, history }));
    times.push(snapshotAt);
  }
  return { times, publishMs: (performance.now() - started) / publishes };
}

/**
 * The catalog at a real size for the judged search set: the embedded default plus every real
 * repository of test/fixtures/real-plugins.json, classified with the editors' data. A fact the
 * fixture lacks takes the platform's default (no stars, forks or topics counted, not archived; an
 * unknown creation or push time takes the other one, or 2025-06-01): the fake platform's own facts.
 */
import { toRecords } from "../src/catalog/model/classify";
import { loadEditorial } from "../src/catalog/model/editorial";
import type { RepoFacts, SnapshotInput } from "../src/catalog/model/types";
import { defaultSnapshotInput } from "../src/catalog/snapshot/publish";
import { platformFacts, type RealPlugin, realPlugins } from "./fakes/plugin-space";

/** A fixture record as the platform would report it, with the fixture's category as a hint. */
function platformRecord(p: RealPlugin): RepoFacts {
  return { ...platformFacts(p), hint: p.category };
}

/** The default snapshot's input with every fixture repository it lacks added. */
export function realCatalogInput(): SnapshotInput {
  const base = defaultSnapshotInput();
  const known = new Set(base.plugins.map((p) => p.id.toLowerCase()));
  const extra = realPlugins()
    .filter((p) => !known.has(p.full_name.toLowerCase()))
    .map(platformRecord);
  const added = toRecords(extra, loadEditorial(), () => ({ firstSeenAt: base.snapshotAt }));
  return { ...base, plugins: [...base.plugins, ...added] };
}

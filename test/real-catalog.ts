/**
 * The catalog at a real size for the judged search set: the embedded default plus every real
 * repository of test/fixtures/real-plugins.json, classified with the editors' data. A fact the
 * fixture lacks takes the platform's default (no stars, forks or topics counted, not archived; an
 * unknown creation or push time takes the other one, or 2025-06-01), as the fake platform does.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { toRecords } from "../src/catalog/classify";
import { loadEditorial } from "../src/catalog/editorial";
import { defaultSnapshotInput } from "../src/catalog/publish";
import type { RepoFacts, SnapshotInput } from "../src/catalog/types";

const FIXTURE = join(import.meta.dir, "fixtures", "real-plugins.json");
const UNKNOWN_TIME = "2025-06-01T00:00:00Z";

interface RealFacts {
  full_name: string;
  description: string | null;
  homepage: string | null;
  stars: number | null;
  forks: number | null;
  language: string | null;
  license: string | null;
  archived: boolean | null;
  created_at: string | null;
  pushed_at: string | null;
  topics: string[] | null;
  category: string | null;
}

/** A fixture record as the platform would report it. */
function platformFacts(p: RealFacts): RepoFacts {
  return {
    full_name: p.full_name,
    description: p.description,
    homepage: p.homepage,
    stars: p.stars ?? 0,
    forks: p.forks ?? 0,
    language: p.language,
    license: p.license,
    archived: p.archived ?? false,
    created_at: p.created_at ?? p.pushed_at ?? UNKNOWN_TIME,
    pushed_at: p.pushed_at ?? p.created_at ?? UNKNOWN_TIME,
    topics: p.topics ?? [],
    hint: p.category,
  };
}

/** The default snapshot's input with every fixture repository it lacks added. */
export function realCatalogInput(): SnapshotInput {
  const base = defaultSnapshotInput();
  const known = new Set(base.plugins.map((p) => p.id.toLowerCase()));
  const fixture = JSON.parse(readFileSync(FIXTURE, "utf8")) as RealFacts[];
  const extra = fixture.filter((p) => !known.has(p.full_name.toLowerCase())).map(platformFacts);
  const added = toRecords(extra, loadEditorial(), () => ({ firstSeenAt: base.snapshotAt }));
  return { ...base, plugins: [...base.plugins, ...added] };
}

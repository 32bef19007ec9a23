/**
 * A Claude Code marketplace's `.claude-plugin/marketplace.json`: its plugins (name, source,
 * description) and the install steps, to add the marketplace and to install each plugin. What the
 * CLI would refuse is said in the record (`refused`) and counted, never offered as a command: a
 * source it does not take, a name its plugin ids cannot hold or one it reserves for Anthropic.
 */
import { pluginNameProblem } from "../../catalog/model/claude-names";
import type { Contents, Install } from "../../catalog/model/details";
import { namesItself } from "../../catalog/model/plugin-entry";
import { cleanText } from "../upstream/gate";
import { type Gate, isObject, type Json, MAX_ENTRIES, MAX_TEXT } from "./manifest-gate";
import { fromRoot, type RootLayout, readEntry } from "./marketplace-entry";
import { marketplaceNameRefusal } from "./marketplace-names";
import { readSource } from "./marketplace-sources";
import { pluginNameRefusal } from "./plugin-manifest";
import { MANIFEST_FILES } from "./selection";

type Listed = Contents["plugins"][number];

export interface MarketplaceRead {
  name: string | null;
  refused: string | null;
  /** Every entry read (up to MAX_ENTRIES), refused ones with their reason. */
  plugins: Listed[];
  /** Entries the manifest lists, all of them. */
  count: number;
  install: Install[];
}

const DUPLICATE = "duplicate plugin name in this marketplace; Claude Code installs the first";

/** What reading one marketplace's entries shares: its repository, name, the names seen, the root's layout. */
interface Reading {
  id: string;
  market: string;
  seen: Set<string>;
  layout: RootLayout;
}

/**
 * One entry as listed: its name, source text and description, what it installs beyond its source
 * (`entry`, checked against the repository's layout for a root entry), or why the CLI refuses it.
 */
function entry(raw: Json, { id, market, seen, layout }: Reading): Listed | { unnamed: string } {
  const nameRefusal = pluginNameRefusal(raw.name);
  if (nameRefusal) return { unnamed: nameRefusal };
  const name = raw.name as string;
  const description = typeof raw.description === "string" ? cleanText(raw.description, MAX_TEXT) : null;
  const source = readSource(raw.source);
  const listed: Listed = { name, source: "text" in source ? source.text : "unsupported", description };
  const named = pluginNameProblem(name, market);
  if (named) listed.refused = named;
  else if ("refused" in source) listed.refused = source.refused;
  else if (seen.has(name)) listed.refused = DUPLICATE;
  seen.add(name);
  const read = listed.refused ? null : readEntry(raw, namesItself(listed.source, id));
  if (read) listed.entry = listed.source === "./" ? fromRoot(read, layout) : read;
  return listed;
}

/** The marketplace's entries and install lines; null when it has no plugin list (counted). */
export function readMarketplace(gate: Gate, manifest: Json, id: string, layout: RootLayout): MarketplaceRead | null {
  const file = MANIFEST_FILES.marketplace;
  if (!Array.isArray(manifest.plugins)) return gate.refuse(file, "no plugin list", id);
  const count = manifest.plugins.length;
  if (count > MAX_ENTRIES) gate.refuse(file, `more than ${MAX_ENTRIES} plugins`, id);
  const refused = marketplaceNameRefusal(manifest.name, id);
  if (refused) gate.refuse(file, refused, id);
  const shown = typeof manifest.name === "string" ? cleanText(manifest.name, 100) : null;
  const plugins: Listed[] = [];
  const reading: Reading = {
    id,
    market: typeof manifest.name === "string" ? manifest.name : "",
    seen: new Set(),
    layout,
  };
  for (const raw of manifest.plugins.slice(0, MAX_ENTRIES)) {
    if (!isObject(raw)) {
      gate.refuse(file, "plugin entry not an object", id);
      continue;
    }
    const read = entry(raw, reading);
    if ("unnamed" in read) gate.refuse(file, read.unnamed, id);
    else {
      if (read.refused) gate.refuse(file, read.refused, id);
      if (read.entry?.unserved) gate.refuse(file, `entry not served by the catalog: ${read.entry.unserved}`, id);
      plugins.push(read);
    }
  }
  const installable = plugins.filter((p) => !p.refused);
  const install: Install[] = [];
  if (!refused && installable.length > 0) {
    const step = (kind: "marketplace" | "plugin", command: string): Install => ({
      harness: "claude-code",
      kind,
      command,
      env: [],
      from: file,
    });
    install.push(...gate.instructions(id, [step("marketplace", `/plugin marketplace add ${id}`)]));
    const name = manifest.name as string;
    install.push(
      ...gate.instructions(
        id,
        installable.map((p) => step("plugin", `/plugin install ${p.name}@${name}`)),
      ),
    );
  }
  return { name: shown, refused, plugins, count, install };
}

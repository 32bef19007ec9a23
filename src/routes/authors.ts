/**
 * The home page's section for plugin authors: how a repository gets listed (the evidence the
 * snapshot's refresh accepted), how to check one, and the badge's Markdown. Every string escaped.
 */
import type { Snapshot } from "../catalog/snapshot";

const esc = (text: string) => Bun.escapeHTML(text);
const codes = (items: readonly string[]) => items.map((item) => `<code>${esc(item)}</code>`).join(", ");

/** An example id: the most starred plugin, or a placeholder in an empty catalog. */
function exampleId(snapshot: Snapshot): string {
  const first = snapshot.byStars(0, 1).items[0];
  return first === undefined ? "owner/repo" : (JSON.parse(first) as { id: string }).id;
}

/** The section, as HTML. */
export function authorsSection(snapshot: Snapshot, baseUrl: string): string {
  const rules = snapshot.listingRules;
  const id = exampleId(snapshot);
  const base = esc(baseUrl);
  const evidence: string[] = [];
  if (rules.files.length) evidence.push(`one of the files ${codes(rules.files.map((f) => f.path))} at its root`);
  if (rules.folders.length) evidence.push(`one of the folders ${codes(rules.folders)}`);
  if (rules.dependencies.length) evidence.push(`a dependency on an MCP SDK (${codes(rules.dependencies)})`);
  if (rules.topics.length) evidence.push(`one of the topics ${codes(rules.topics)}`);
  evidence.push("a link from a curated list or a plugin marketplace the catalog reads, or the editors' word");
  const badge = `[![Plugin Catalog](${baseUrl}/badge/${id}.svg)](${baseUrl}/plugin/${id})`;
  return `<section aria-labelledby="authors">
<h2 id="authors">For plugin authors</h2>
<p>A refresh (every six hours by default) searches the hosting platform for candidates and lists one only with
evidence that it extends a coding-agent harness: ${evidence.join("; ")}. A listed plugin stays listed.</p>
<p>Ask why a repository is or is not listed, and when it is checked next:
<a href="/api/v1/listing/${esc(id)}"><code>${base}/api/v1/listing/${esc(id)}</code></a>
(<code>status</code>, <code>reason</code>, the evidence checked and what to change).</p>
<p>Show a listing in a README (a grey “not listed” badge otherwise; <code>?show=category</code> or
<code>?show=stars</code> say more; <code>.json</code> gives the shields.io endpoint form):</p>
<div class="command"><pre data-copy="the badge's Markdown"><code>${esc(badge)}</code></pre></div>
</section>`;
}

/** @jsxImportSource preact */
/**
 * GET /plugin/{owner}/{repo}: one plugin's page; a former id or another spelling of the id
 * redirects, an unknown one is 404.
 */
import { INCLUDE_PARTS } from "../catalog/model/details";
import type { LastUpdate } from "../catalog/model/update-diff";
import type { PluginView } from "../catalog/model/wire";
import type { Snapshot } from "../catalog/snapshot/snapshot";
import type { Rendered } from "../http/cache";
import { categoryPath, pluginPath } from "../http/paths";
import { categoryName } from "./browse-page";
import { ContextCost } from "./context-panel";
import { DateText, number, Page, renderPage, webUrl } from "./layout";
import { movedTo, NotFoundPage } from "./notices";
import { OwnerNotices } from "./owner-page";
import { Contents, Flags, Install, Section, ValueSection } from "./record-parts";
import { RiskNotes } from "./risk-panel";
import { SecuritySignals } from "./security-panel";
import { RemoteTools } from "./tools-panel";
import { LastUpdatePanel } from "./update-panel";

/** Where a repository's Claude Code plugins are served by the catalog: a marketplace's name and URL, the plugins' names in it. */
export interface Served {
  marketplace: string;
  url: string;
  names: readonly string[];
}
export type ServedIn = (snapshot: Snapshot, id: string) => Served | null;

/** The two commands that add the catalog's marketplace to Claude Code and install each plugin from it. */
function ServedSection({ served }: { served: Served | null }) {
  if (served === null) return null;
  const commands = [
    `/plugin marketplace add ${served.url}`,
    ...served.names.map((name) => `/plugin install ${name}@${served.marketplace}`),
  ];
  return (
    <Section id="claude-marketplace" title="In the catalog's Claude Code marketplace">
      <p>
        Served in the marketplace <code>{served.marketplace}</code> as{" "}
        {served.names.map((name, i) => (
          <>
            {i > 0 ? ", " : null}
            <code>{name}</code>
          </>
        ))}
        . In Claude Code:
      </p>
      <pre data-copy="the Claude Code commands">
        <code>{commands.join("\n")}</code>
      </pre>
    </Section>
  );
}

/** What the plugin record may carry beyond the full form (install, contents, flags, works_with). */
type PluginRecordView = PluginView & Record<string, unknown>;

function Facts({ p }: { p: PluginRecordView }) {
  const facts: Array<[string, preact.ComponentChildren]> = [
    ["Stars", number(p.stars)],
    ["Forks", number(p.forks)],
    ["Language", p.language || "unknown"],
    ["Licence", p.license || "unknown"],
    ["Created", <DateText at={p.created_at} />],
    ["Last push", <DateText at={p.pushed_at} />],
  ];
  if (p.archived) facts.push(["Archived", "yes: the repository is read-only"]);
  return (
    <Section id="facts" title="Facts">
      <dl class="facts">
        {facts.map(([k, v]) => (
          <>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </>
        ))}
      </dl>
    </Section>
  );
}

function Links({ p }: { p: PluginRecordView }) {
  const repo = webUrl(p.url);
  const homepage = webUrl(p.homepage);
  return (
    <nav aria-label="Links" class="links">
      <ul>
        {repo ? (
          <li>
            <a href={repo}>Repository</a>
          </li>
        ) : null}
        {homepage ? (
          <li>
            <a href={homepage}>Homepage</a>
          </li>
        ) : null}
        <li>
          <a href={`/api/v1/plugins/${pluginPath(p.id).slice("/plugin/".length)}`}>This plugin as JSON</a>
        </li>
      </ul>
    </nav>
  );
}

/** The page of one record (exported for the markup test, which renders parts the gate would not serve). */
export function pluginView(snapshot: Snapshot, p: PluginRecordView, served: Served | null = null): Rendered {
  const primary = snapshot.categories.find((c) => c.id === p.category) ?? null;
  const stored = snapshot.lastUpdate(p.id);
  const update = stored === null ? null : (JSON.parse(stored) as LastUpdate);
  return renderPage(
    <Page
      title={`${p.full_name} — Plugin Catalog`}
      description={p.description || undefined}
      script
      feedCategory={primary}
      canonical={pluginPath(p.id)}
    >
      <h1>{p.full_name}</h1>
      {p.archived ? (
        <p>
          <span class="flag">archived</span>
        </p>
      ) : null}
      <OwnerNotices flags={p} />
      <p>{p.description || "No description."}</p>
      {p.description_zh ? <p lang="zh">{p.description_zh}</p> : null}
      <Links p={p} />
      <Facts p={p} />
      <Section id="categories" title="Categories">
        <ul class="tags">
          {p.categories.map((id) => (
            <li>
              <a href={categoryPath(id)}>{categoryName(snapshot, id)}</a>
            </li>
          ))}
        </ul>
      </Section>
      {p.topics.length > 0 ? (
        <Section id="topics" title="Topics">
          <ul class="tags">
            {p.topics.map((topic) => (
              <li>
                <a href={`/browse?q=${encodeURIComponent(topic)}`}>{topic}</a>
              </li>
            ))}
          </ul>
        </Section>
      ) : null}
      <Install install={p.install} />
      <ContextCost context={p.context} />
      <LastUpdatePanel update={update} />
      <ServedSection served={served} />
      <RiskNotes risk={p.risk} />
      <SecuritySignals security={p.security} />
      <RemoteTools remote={p.remote} tools={p.tools} />
      <Contents contents={p.contents} />
      <ValueSection id="works-with" title="Works with" value={p.works_with} />
      <Flags record={p} />
    </Page>,
  );
}

/** One plugin's page; a former id or another spelling of the id redirects, an unknown one is 404. */
export function pluginPage(snapshot: Snapshot, id: string, servedIn: ServedIn = () => null): Rendered {
  // Every part the snapshot stores beside the full form: contents, install, flags, works_with.
  const json = snapshot.plugin(id, INCLUDE_PARTS);
  if (json === null) {
    const current = snapshot.currentId(id);
    if (current !== null) return movedTo(pluginPath(current), `Plugin ${id} is now ${current}.`);
    return renderPage(<NotFoundPage title="No such plugin">The catalog has no plugin {id}.</NotFoundPage>, 404);
  }
  const record = JSON.parse(json) as PluginRecordView;
  if (record.id !== id) return movedTo(pluginPath(record.id), `Plugin ${id} is written ${record.id}.`);
  return pluginView(snapshot, record, servedIn(snapshot, record.id));
}

/** @jsxImportSource preact */
/**
 * The plugin page's "What the last update changed": the diff the snapshot stored when it saw the
 * update (update-diff.ts), in words. Nothing when no update was seen.
 */
import { RISK_RULE_TEXT } from "../catalog/model/risk";
import { COMPONENT_LISTS, type LastUpdate } from "../catalog/model/update-diff";
import { LIST_NAMES } from "../catalog/model/update-lines";
import { DateText } from "./layout";
import { Section } from "./record-parts";

const short = (commit: string | null) => (commit === null ? "unknown" : commit.slice(0, 12));

function Names({ names, total }: { names: string[]; total: number }) {
  return (
    <>
      {names.map((name, i) => (
        <>
          {i > 0 ? ", " : null}
          <code>{name}</code>
        </>
      ))}
      {total > names.length ? ` and ${total - names.length} more` : null}
    </>
  );
}

/** One component list's line, added or removed; nothing when the list did not change that way. */
function ListLines({ update, way }: { update: Changed; way: "added" | "removed" }) {
  return (
    <>
      {COMPONENT_LISTS.filter((list) => update.counts[way][list] > 0).map((list) => (
        <li>
          {LIST_NAMES[list]} {way}: <Names names={update[way][list]} total={update.counts[way][list]} />
        </li>
      ))}
    </>
  );
}

type Changed = Extract<LastUpdate, { kind: "changed" }>;

/** When the update was seen, between which commits and versions, and whether the version stood still. */
function Seen({ update }: { update: Changed }) {
  const { from, to } = update;
  return (
    <>
      <p>
        Seen on <DateText at={update.at} />
        {from.commit !== null || to.commit !== null ? (
          <>
            , from commit <code>{short(from.commit)}</code> to <code>{short(to.commit)}</code>
          </>
        ) : null}
        {from.version !== to.version ? (
          <>
            , version <code>{from.version ?? "none"}</code> to <code>{to.version ?? "none"}</code>
          </>
        ) : null}
        .
      </p>
      {update.version_unchanged ? (
        <p>
          <span class="flag">same version</span> The content changed while the declared version (
          <code>{to.version ?? "none"}</code>) did not move.
        </p>
      ) : null}
    </>
  );
}

/** The install lines added and removed, and the packages whose name or version changed. */
function InstallLines({ update }: { update: Changed }) {
  const { install, counts } = update;
  return (
    <>
      {install.added.map((line) => (
        <li>
          Install line added ({line.harness}, {line.kind}): <code>{line.text}</code>
        </li>
      ))}
      {install.removed.map((line) => (
        <li>
          Install line removed ({line.harness}, {line.kind}): <code>{line.text}</code>
        </li>
      ))}
      {counts.install_added + counts.install_removed > install.added.length + install.removed.length ? (
        <li>
          {counts.install_added} install lines added and {counts.install_removed} removed in all.
        </li>
      ) : null}
      {update.packages.map((p) => (
        <li>
          Package changed ({p.kind}, from <code>{p.from}</code>): <code>{p.before}</code> to <code>{p.after}</code>
        </li>
      ))}
    </>
  );
}

/** The new risk notes and the context cost's change. */
function RiskAndCost({ update }: { update: Changed }) {
  const { counts, context } = update;
  return (
    <>
      {update.risk_added.map((note) => (
        <li>
          New risk note: <strong>{RISK_RULE_TEXT[note.rule]}</strong> (<code>{note.rule}</code>) at{" "}
          <code>
            {note.file}:{note.line}
          </code>
        </li>
      ))}
      {counts.risk_added > update.risk_added.length ? (
        <li>{counts.risk_added - update.risk_added.length} more new risk notes.</li>
      ) : null}
      {context.before !== context.after ? (
        <li>
          Context cost: {context.before ?? "not measured"} to {context.after ?? "not measured"} tokens
          {context.delta !== null ? ` (${context.delta >= 0 ? "+" : ""}${context.delta})` : null}.
        </li>
      ) : null}
    </>
  );
}

export function LastUpdatePanel({ update }: { update: LastUpdate | null }) {
  if (update === null) return null;
  if (update.kind === "new") {
    return (
      <Section id="last-update" title="What the last update changed">
        <p>
          New in the catalog on <DateText at={update.at} />
          {update.to.version ? (
            <>
              , at version <code>{update.to.version}</code>
            </>
          ) : null}
          .
        </p>
      </Section>
    );
  }
  return (
    <Section id="last-update" title="What the last update changed">
      <Seen update={update} />
      <UpdateChanges update={update} />
    </Section>
  );
}

/** What a diff adds and drops, as a list (the review page shows it for each plugin waiting too). */
export function UpdateChanges({ update }: { update: Changed }) {
  return (
    <ul>
      <ListLines update={update} way="added" />
      <ListLines update={update} way="removed" />
      <InstallLines update={update} />
      <RiskAndCost update={update} />
    </ul>
  );
}

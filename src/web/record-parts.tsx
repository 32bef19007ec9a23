/** @jsxImportSource preact */
/**
 * The optional parts of a plugin record on its page: install instructions, contents, flags, and
 * any other value whatever its shape. Their shapes come from upstream manifests, so each is read
 * defensively; strings become text, and only http(s) addresses become links.
 */
import type { ComponentChildren, VNode } from "preact";
import { pluginLineProblem } from "../catalog/model/claude-names";
import { pluginPath } from "../http/paths";
import { number, webUrl } from "./layout";
import { CONTENT_KINDS, PluginParts } from "./plugin-parts-view";

const label = (key: string) => key.replaceAll("_", " ");

/** A value of the record's optional fields, whatever its shape; null when it shows nothing. */
export function valueNode(value: unknown, depth = 0): VNode | string | null {
  if (value === null || value === undefined || value === false || value === "") return null;
  if (value === true) return "yes";
  if (typeof value === "number") return String(value);
  if (typeof value === "string") {
    const url = webUrl(value);
    return url !== null && /^https?:\/\//i.test(value) ? <a href={url}>{value}</a> : value;
  }
  if (depth > 3 || typeof value !== "object") return null;
  if (Array.isArray(value)) {
    const items = value.map((v) => valueNode(v, depth + 1)).filter((node) => node !== null);
    return items.length ? (
      <ul>
        {items.map((node) => (
          <li>{node}</li>
        ))}
      </ul>
    ) : null;
  }
  const rows = Object.entries(value as Record<string, unknown>)
    .map(([key, v]) => [key, valueNode(v, depth + 1)] as const)
    .filter(([, node]) => node !== null);
  return rows.length ? <Facts rows={rows} /> : null;
}

const Facts = ({ rows }: { rows: ReadonlyArray<readonly [string, ComponentChildren]> }) => (
  <dl class="facts">
    {rows.map(([key, node]) => (
      <>
        <dt>{label(key)}</dt>
        <dd>{node}</dd>
      </>
    ))}
  </dl>
);

/** A titled section of the page, left out when it has nothing to show. */
export function Section({ id, title, children }: { id: string; title: string; children: ComponentChildren }) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

export function ValueSection({ id, title, value }: { id: string; title: string; value: unknown }) {
  const node = valueNode(value);
  return node === null ? null : (
    <Section id={id} title={title}>
      {node}
    </Section>
  );
}

interface InstallStep {
  harness?: unknown;
  kind?: unknown;
  command?: unknown;
  config?: unknown;
  env?: unknown;
  from?: unknown;
  package_verified?: unknown;
  package_note?: unknown;
  package_proof?: unknown;
}

function InstallStepView({ step, i }: { step: InstallStep; i: number }) {
  const harness = typeof step.harness === "string" ? step.harness : "any harness";
  const command = typeof step.command === "string" ? step.command : null;
  const config = step.config ?? null;
  const text =
    command ?? (config === null ? "" : typeof config === "string" ? config : JSON.stringify(config, null, 2));
  const env = Array.isArray(step.env)
    ? (step.env as Array<Record<string, unknown>>).filter(
        (v) => v !== null && typeof v === "object" && typeof v.name === "string",
      )
    : [];
  const from = step.from === undefined || step.from === null ? null : valueNode(step.from);
  // A line the current Claude Code refuses (a record read under an older client's rules) is shown, never to copy.
  const refused = command === null ? null : pluginLineProblem(command);
  return (
    <section class="install" aria-labelledby={`install-${i}`}>
      <h3 id={`install-${i}`}>
        {harness}
        {typeof step.kind === "string" ? ` (${step.kind})` : null}
      </h3>
      {step.package_verified === false ? (
        // A package not proven this repository's own (another's, or only claimed) is shown, but never to copy.
        <>
          <p>
            <strong>
              {step.package_proof === "unproven"
                ? "Unproven: nothing shows this package is this repository's own."
                : "Not this repository's package."}
            </strong>
          </p>
          <pre>
            <code>{text}</code>
          </pre>
        </>
      ) : refused !== null ? (
        <>
          <p>
            <strong>Claude Code refuses this line:</strong> {refused}.
          </p>
          <pre>
            <code>{text}</code>
          </pre>
        </>
      ) : text ? (
        <div class="command">
          <pre data-copy={`the ${harness} install ${command !== null ? "command" : "configuration"}`}>
            <code>{text}</code>
          </pre>
        </div>
      ) : null}
      {typeof step.package_note === "string" ? <p>Package check: {step.package_note}</p> : null}
      {env.length ? (
        <>
          <p>Environment variables:</p>
          <ul>
            {env.map((v) => (
              <li>
                <code>{v.name as string}</code> (
                {[v.required === true ? "required" : "optional", v.secret === true ? "secret" : ""]
                  .filter(Boolean)
                  .join(", ")}
                )
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {from !== null ? <p>From: {from}</p> : null}
    </section>
  );
}

/** Install instructions: each harness's command or configuration, ready to copy, and the variables it needs. */
export function Install({ install }: { install: unknown }) {
  if (!Array.isArray(install) || install.length === 0) return null;
  return (
    <Section id="install" title="Install">
      {(install as unknown[]).map((step, i) =>
        step !== null && typeof step === "object" ? <InstallStepView step={step as InstallStep} i={i} /> : null,
      )}
    </Section>
  );
}

/** The flags a record may carry, as members of its own or in a `flags` object. */
const FLAG_MEMBERS = [
  "fork_of",
  "deprecated",
  "lookalike_of",
  "latest_release",
  "deprecation",
  "canonical",
  "owner_verified",
] as const;

/** The record's flags (fork of, deprecated, look-alike of, latest release), those set. */
export function Flags({ record }: { record: Record<string, unknown> }) {
  const nested = record.flags !== null && typeof record.flags === "object" && !Array.isArray(record.flags);
  const flags: Record<string, unknown> = { ...(nested ? (record.flags as Record<string, unknown>) : {}) };
  for (const member of FLAG_MEMBERS) if (record[member] !== undefined) flags[member] = record[member];
  const rows = Object.entries(flags)
    .map(([key, value]) => {
      // A look-alike names a plugin of the catalog: its page is the one to compare with.
      const node =
        (key === "lookalike_of" || key === "canonical") && typeof value === "string" ? (
          <a href={pluginPath(value)}>{value}</a>
        ) : (
          valueNode(value)
        );
      return [key, node] as const;
    })
    .filter(([, node]) => node !== null);
  return rows.length ? (
    <Section id="flags" title="Flags">
      <Facts rows={rows} />
    </Section>
  ) : null;
}

function ContentItem({ item }: { item: unknown }) {
  if (item === null || typeof item !== "object") return <li>{valueNode(item)}</li>;
  const {
    name,
    description,
    source,
    refused,
    path,
    copy_of: copyOf,
    no_install: noInstall,
    contents: parts,
    install_command: installCommand,
    context,
  } = item as Record<string, unknown>;
  return (
    <li>
      <strong>{String(name ?? "")}</strong>
      {typeof source === "string" ? <> ({valueNode(source)})</> : null}
      {typeof path === "string" ? <> ({valueNode(path)})</> : null}
      {typeof description === "string" && description ? `: ${description}` : null}
      {typeof refused === "string" ? ` — not installable: ${refused}` : null}
      {typeof noInstall === "string" ? ` — no install line: ${noInstall}` : null}
      {parts !== undefined || installCommand !== undefined ? (
        <PluginParts parts={parts} install={installCommand} context={context} />
      ) : null}
      {typeof copyOf === "string" ? (
        <>
          {" "}
          — a copy of a skill in <a href={pluginPath(copyOf)}>{copyOf}</a>
        </>
      ) : null}
    </li>
  );
}

/** What the plugin holds, list by list; a list cut short says how many more its manifests name. */
export function Contents({ contents }: { contents: unknown }) {
  if (contents === null || typeof contents !== "object" || Array.isArray(contents))
    return <ValueSection id="contents" title="Contents" value={contents} />;
  // `truncated` is said by each cut list's "and N more"; `marketplace` only when Claude Code refuses it.
  const { counts, truncated: _cut, marketplace, ...lists } = contents as Record<string, unknown>;
  const parts = Object.entries(lists).filter(([, list]) => Array.isArray(list) && list.length > 0);
  const refused = (marketplace as { refused?: unknown } | undefined)?.refused;
  if (parts.length === 0 && typeof refused !== "string") return null;
  return (
    <Section id="contents" title="Contents">
      {typeof refused === "string" ? <p>Claude Code would not add this marketplace: {refused}.</p> : null}
      {parts.map(([kind, list]) => {
        const items = list as unknown[];
        const total = (counts as Record<string, unknown> | undefined)?.[kind];
        return (
          <>
            <h3>{CONTENT_KINDS[kind] ?? label(kind)}</h3>
            <ul>
              {items.map((item) => (
                <ContentItem item={item} />
              ))}
              {typeof total === "number" && total > items.length ? (
                <li>and {number(total - items.length)} more</li>
              ) : null}
            </ul>
          </>
        );
      })}
    </Section>
  );
}

/** @jsxImportSource preact */
/**
 * What a plugin's owner says of it (the owner file) and what the platform verified of its owner,
 * shown at the top of its page: a verified owner (never called official), a deprecation with its
 * message and replacement, and the repository this one is a copy of.
 */
import { pluginPath } from "../http/paths";

interface OwnerFlags {
  deprecated?: unknown;
  deprecation?: unknown;
  canonical?: unknown;
  owner_verified?: unknown;
}

const text = (value: unknown): string | null => (typeof value === "string" && value !== "" ? value : null);

/** A link to a catalog plugin named by a flag. */
const PluginLink = ({ id }: { id: string }) => <a href={pluginPath(id)}>{id}</a>;

function Deprecation({ flags }: { flags: OwnerFlags }) {
  if (flags.deprecated !== true) return null;
  const d = (flags.deprecation ?? null) as { message?: unknown; replacement?: unknown } | null;
  const replacement = text(d?.replacement);
  return (
    <p id="deprecated">
      <span class="flag">deprecated</span> {d ? "Deprecated by its owner" : "Its server.json says deprecated"}
      {text(d?.message) ? <>: {text(d?.message)}</> : "."}
      {replacement ? (
        <>
          {" "}
          Use <PluginLink id={replacement} /> instead.
        </>
      ) : null}
    </p>
  );
}

/** The owner's notices; nothing when none applies. */
export function OwnerNotices({ flags }: { flags: OwnerFlags }) {
  const canonical = text(flags.canonical);
  return (
    <>
      {flags.owner_verified === true ? (
        <p>
          <span class="flag" title="The platform verified the domain of the organization that owns this repository">
            verified owner
          </span>
        </p>
      ) : null}
      <Deprecation flags={flags} />
      {canonical ? (
        <p id="canonical">
          <span class="flag">copy</span> Its owner says this repository is a copy of <PluginLink id={canonical} />.
        </p>
      ) : null}
    </>
  );
}

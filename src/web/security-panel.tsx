/** @jsxImportSource preact */
/**
 * The plugin page's deps.dev signals, beside the install instructions: the repository's OpenSSF
 * Scorecard ("not scored" when deps.dev has none, never 0) and, for each pinned package version,
 * its advisories and build provenance. Unknown is said as unknown.
 */
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { type PackageSecurity, type Security, SecuritySchema } from "../catalog/model/security";
import { DateText } from "./layout";
import { Section } from "./record-parts";

const checkSecurity = TypeCompiler.Compile(SecuritySchema);

function Scorecard({ s }: { s: Security }) {
  if (s.scorecard !== null)
    return (
      <>
        <strong>{s.scorecard.score.toFixed(1)}</strong> / 10, scored {s.scorecard.date}
      </>
    );
  return s.scorecard_status === "not_scored" ? <>not scored</> : <>unknown: deps.dev did not answer</>;
}

function Advisories({ ids }: { ids: string[] | null }) {
  if (ids === null) return <>advisories unknown</>;
  if (ids.length === 0) return <>no known advisory</>;
  return (
    <>
      {ids.map((id, i) => (
        <>
          {i > 0 ? ", " : ""}
          <a href={`https://osv.dev/vulnerability/${id}`}>{id}</a>
        </>
      ))}
    </>
  );
}

function Provenance({ p }: { p: PackageSecurity }) {
  if (p.provenance === null) return p.advisories === null ? null : <>; no build provenance</>;
  return (
    <>
      ; built from <code>{p.provenance.repository}</code>
      {p.provenance.verified ? " (verified provenance)" : " (provenance not verified)"}
    </>
  );
}

export function SecuritySignals({ security }: { security: unknown }) {
  if (!checkSecurity.Check(security)) return null;
  const s = security;
  return (
    <Section id="security" title="Scorecard and advisories">
      <p>
        OpenSSF Scorecard of the repository: <Scorecard s={s} />.
      </p>
      {s.packages.length > 0 ? (
        <ul>
          {s.packages.map((p) => (
            <li>
              <code>
                {p.name}@{p.version}
              </code>{" "}
              ({p.system === "npm" ? "npm" : "PyPI"}): <Advisories ids={p.advisories} />
              <Provenance p={p} />
            </li>
          ))}
        </ul>
      ) : (
        <p>No install line pins a package version to check for advisories.</p>
      )}
      {s.checked_at !== null ? (
        <p>
          From deps.dev, checked <DateText at={s.checked_at} />.
        </p>
      ) : null}
    </Section>
  );
}

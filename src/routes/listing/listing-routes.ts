/**
 * GET /api/v1/listing/:owner/:repo: whether a repository is listed and, if not, why and what to
 * change. Answered from the snapshot: the plugin, a former id's alias, or the refresher's last
 * decision about it (catalog/candidates.ts), each one indexed lookup.
 */
import { Type as t } from "@sinclair/typebox";
import { type CandidateDecision, REJECTIONS } from "../../catalog/model/candidates";
import { OWNER_PATTERN, REPO_PATTERN } from "../../catalog/model/names";
import { known } from "../../catalog/snapshot/known";
import type { Snapshot } from "../../catalog/snapshot/snapshot";
import type { Answer } from "../../http/answer";
import { CACHE_CONTROL, decoded, JSON_TYPE, type Rendered, render } from "../../http/cache";
import { okEnvelope } from "../../http/envelope";
import type { RouteDoc } from "../../http/openapi";
import { checkedId } from "../../http/repo-id";
import { envelopeSchema, stringEnum } from "../../http/wire-schemas";
import { listedAdvice, rejectedAdvice, unseenAdvice } from "./advice";

/** The evidence looked for, beside what was found. */
function evidenceChecked(snapshot: Snapshot, decision: CandidateDecision | null) {
  const e = decision?.evidence;
  if (!e) return null;
  const rules = snapshot.listingRules;
  return {
    listed_by: e.listed_by,
    editors: e.editors,
    topics: { accepted: rules.topics, found: e.topics },
    files: {
      checked: e.files_checked,
      accepted: [...rules.files.map((f) => f.path), ...rules.folders, ...rules.dependencies],
      found: e.files,
    },
  };
}

/** The listing answer of `id`; `next` is when the scheduled refresh runs next. */
function renderListing(snapshot: Snapshot, arg: { id: string; next: string | null; baseUrl: string }): Rendered {
  const k = known(snapshot, arg.id);
  const rules = snapshot.listingRules;
  const advice =
    k.status === "listed"
      ? listedAdvice(k.id, k.current, arg.baseUrl)
      : k.status === "rejected"
        ? rejectedAdvice(k.decision!, k.reason!, rules, arg.next)
        : unseenAdvice(rules, arg.next);
  const data = {
    id: k.current ?? k.id,
    status: k.status,
    reason: k.reason,
    // Only a policy's decision carries it: a catalog without a policy answers as before.
    ...(k.reason === "policy" ? { policy_rule: k.decision?.detail ?? null } : {}),
    current_id: k.current,
    found_by: k.decision?.found_by ?? [],
    evidence_checked: evidenceChecked(snapshot, k.decision),
    last_checked_at: k.decision?.checked_at ?? (k.status === "listed" ? snapshot.snapshotAt : null),
    next_check_at: arg.next,
    advice,
    generatedAt: snapshot.snapshotAt,
  };
  return render(okEnvelope(JSON.stringify(data)), JSON_TYPE, CACHE_CONTROL);
}

const strings = (description: string) => t.Array(t.String(), { description });
const nullable = <T extends Parameters<typeof t.Union>[0][number]>(schema: T, description: string) =>
  t.Union([schema, t.Null()], { description });
const time = t.String({ format: "date-time" });

const EvidenceSchema = t.Object(
  {
    listed_by: strings("Curated lists and marketplaces that list it."),
    editors: t.Boolean({ description: "Whether the editors' data names it." }),
    topics: t.Object(
      { accepted: strings("Topics taken as evidence."), found: strings("Those it carries.") },
      { additionalProperties: false },
    ),
    files: t.Object(
      {
        checked: t.Boolean({ description: "Whether its files were looked at (a run without a token does not)." }),
        accepted: strings(
          "Files at the repository's root, folders (`skills/`) and dependencies (`package.json: <name>`) taken as evidence.",
        ),
        found: strings("Those present."),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

export const listingDoc: RouteDoc<Snapshot> = {
  tag: "For plugin authors",
  summary: "Whether a repository is listed, and if not why and what to change",
  description:
    "`status` is `listed`, `rejected` (the last refresh that met it left it out for `reason`) or `unseen` (no " +
    "refresh in the last 90 days met it). A former id of a renamed plugin answers with `current_id`. `advice` " +
    "is a sentence saying what to change; `next_check_at` is the next scheduled refresh (null when none is).",
  params: t.Object({
    owner: t.String({ description: "Repository owner.", pattern: OWNER_PATTERN, examples: ["modelcontextprotocol"] }),
    repo: t.String({ description: "Repository name.", pattern: REPO_PATTERN, examples: ["servers"] }),
  }),
  body: envelopeSchema({
    id: t.String({ description: "`<owner>/<repo>`: the current id when known, else as asked." }),
    status: stringEnum(["listed", "rejected", "unseen"]),
    reason: t.Union([stringEnum(REJECTIONS), t.Null()], { description: "Why a rejected repository was left out." }),
    policy_rule: t.Optional(
      nullable(
        t.String(),
        "Only with `reason` `policy`: the rule of the operator's policy that keeps it out (`deny repo someone/thing`, `require.scorecard_min 5: scorecard 3.1`, `not in allow`).",
      ),
    ),
    current_id: nullable(t.String(), "The id a renamed repository is listed under now."),
    found_by: strings("The discovery rules that found it in the last refresh that met it."),
    evidence_checked: nullable(EvidenceSchema, "The evidence looked for and found; null when never checked."),
    last_checked_at: nullable(time, "When a refresh last decided about it."),
    next_check_at: nullable(time, "When the next scheduled refresh runs."),
    advice: t.String({ description: "What became of it and what its author can change, in one sentence." }),
    generatedAt: t.String({ format: "date-time", description: "Time of the snapshot that answered." }),
  }),
  cached: "snapshot",
  example: (snapshot, baseUrl) => {
    const first = snapshot.byStars(0, 1).items[0];
    if (first === undefined) return undefined;
    const id = (JSON.parse(first) as { id: string }).id;
    return decoded(renderListing(snapshot, { id, next: null, baseUrl }));
  },
};

export function listingHandlers(answer: Answer, baseUrl: string, next: () => string | null) {
  return {
    // Parsed on every request: the next refresh's time moves with the clock, not the snapshot.
    listing: answer.route(
      "listing",
      (_query, _snapshot, { owner, repo }: { owner: string; repo: string }) => ({
        id: checkedId(owner, repo),
        next: next(),
      }),
      (snapshot, arg) => renderListing(snapshot, { ...arg, baseUrl }),
      { fresh: true },
    ),
  };
}

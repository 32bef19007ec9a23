/**
 * GET /api/v1/listing/:owner/:repo: whether a repository is listed and, if not, why and what to
 * change. Answered from the snapshot: the plugin, a former id's alias, or the refresher's last
 * decision about it (catalog/candidates.ts), each one indexed lookup.
 */
import { Type as t } from "@sinclair/typebox";
import { type CandidateDecision, REJECTIONS, type Rejection } from "../catalog/candidates";
import { isPlatformName } from "../catalog/names";
import type { Snapshot } from "../catalog/snapshot";
import { JSON_CACHE_CONTROL, JSON_TYPE, type Rendered, render } from "../http/cache";
import { okEnvelope } from "../http/envelope";
import { HttpError } from "../http/errors";
import type { RouteDoc } from "../http/openapi";
import { envelopeSchema, stringEnum } from "../http/wireschemas";
import { listedAdvice, rejectedAdvice, unseenAdvice } from "./advice";
import type { Answer, CatalogContext } from "./answer";

export type ListingStatus = "listed" | "rejected" | "unseen";

/** What the snapshot knows of one repository: the facts a listing answer and a badge are made from. */
export interface Known {
  status: ListingStatus;
  /** The id it is listed under (current casing), or the id as asked. */
  id: string;
  /** Its current id, when asked under a former one. */
  current: string | null;
  decision: CandidateDecision | null;
  reason: Rejection | null;
  /** The listed plugin's category id and stars. */
  plugin: { category: string; stars: number } | null;
}

/** 400 unless `id` is a name the platform allows: such a repository cannot exist. */
export function checkedId(owner: string, repo: string): string {
  const id = `${owner}/${repo}`;
  if (!isPlatformName(id)) {
    throw new HttpError(
      400,
      `Invalid repository "${id.slice(0, 200)}": owner is letters, digits and hyphens (at most 39), repository letters, digits, ".", "_" and "-" (at most 100).`,
    );
  }
  return id;
}

const isRejection = (decision: string): decision is Rejection => (REJECTIONS as readonly string[]).includes(decision);

/** The listing of `id` in `snapshot`. */
export function known(snapshot: Snapshot, id: string): Known {
  const listed = (json: string, current: string | null): Known => {
    const p = JSON.parse(json) as { id: string; category: string; stars: number };
    const decision = snapshot.candidate(p.id);
    return { status: "listed", id: p.id, current, decision, reason: null, plugin: p };
  };
  const plugin = snapshot.plugin(id);
  if (plugin !== null) return listed(plugin, null);
  const alias = snapshot.currentId(id);
  const aliased = alias === null ? null : snapshot.plugin(alias);
  if (alias !== null && aliased !== null) return listed(aliased, alias);
  const decision = snapshot.candidate(id);
  const moved = decision?.current_id ? snapshot.plugin(decision.current_id) : null;
  if (decision?.current_id && moved !== null) return listed(moved, decision.current_id);
  if (decision !== null && isRejection(decision.decision)) {
    const { id: decided, current_id: current } = decision;
    return { status: "rejected", id: decided, current, decision, reason: decision.decision, plugin: null };
  }
  return { status: "unseen", id, current: null, decision: null, reason: null, plugin: null };
}

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
export function renderListing(snapshot: Snapshot, arg: { id: string; next: string | null; baseUrl: string }): Rendered {
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
    current_id: k.current,
    found_by: k.decision?.found_by ?? [],
    evidence_checked: evidenceChecked(snapshot, k.decision),
    last_checked_at: k.decision?.checked_at ?? (k.status === "listed" ? snapshot.snapshotAt : null),
    next_check_at: arg.next,
    advice,
    generatedAt: snapshot.snapshotAt,
  };
  return render(okEnvelope(JSON.stringify(data)), JSON_TYPE, JSON_CACHE_CONTROL);
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
    owner: t.String({ description: "Repository owner.", examples: ["modelcontextprotocol"] }),
    repo: t.String({ description: "Repository name.", examples: ["servers"] }),
  }),
  body: envelopeSchema({
    id: t.String({ description: "`<owner>/<repo>`: the current id when known, else as asked." }),
    status: stringEnum(["listed", "rejected", "unseen"]),
    reason: t.Union([stringEnum(REJECTIONS), t.Null()], { description: "Why a rejected repository was left out." }),
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
    const rendered = renderListing(snapshot, { id, next: null, baseUrl });
    return JSON.parse(new TextDecoder().decode(rendered.body));
  },
};

// The 304 (null) is returned apart, which keeps the handler synchronous: see answer.ts.
export function listingHandlers(answer: Answer, baseUrl: string, next: () => string | null) {
  return {
    listing: ({ request, set, note, params }: CatalogContext & { params: { owner: string; repo: string } }) => {
      const id = checkedId(params.owner, params.repo);
      const arg = { id, next: next(), baseUrl };
      const response = answer({ request, set, note }, `listing:${id.toLowerCase()}|${arg.next}`, renderListing, arg);
      if (response === null) return null;
      return response;
    },
  };
}

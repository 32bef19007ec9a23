/**
 * Fetching with a token: repositories in GraphQL queries of up to 100 aliased `repository` fields,
 * one point of the GraphQL budget each. Inside the same query each repository is asked for the
 * evidence files (`object(expression: "HEAD:path")`) and its marketplace manifest's text, so
 * evidence costs no call of its own. The platform resolves an old name to the renamed repository
 * (its nameWithOwner is the new id) and answers a deleted or hidden one with null and a NOT_FOUND error.
 */
import { GraphqlResponseError } from "@octokit/graphql";
import { DEFAULT_SOURCE_LIMITS } from "../../settings";
import type { DiscoveryRules } from "../discover/discovery-rules";
import { listedInManifest } from "../discover/lists";
import type { GitHub } from "../github/client";
import {
  CONTEXT_FILES_PER_QUERY,
  contextFileCount,
  contextSelection,
  finishContext,
  shareContextFiles,
} from "../manifests/context-files";
import {
  type ManifestReader,
  type ManifestReading,
  manifestSelection,
  partsSelection,
  skillSelection,
} from "../manifests/reader";
import { alias, atCommit } from "../manifests/selection";
import { hookScripts, scriptSelection, withScriptRisk } from "../risk/hook-scripts";
import type { UpstreamGate } from "../upstream/gate";
import { fromGraph, REPO_FIELDS } from "../upstream/repo-facts";
import { fairShare, packRounds } from "./fair-share";
import { askMissing, KnownFields } from "./known-fields";
import type { Outcome } from "./outcome";
import { readPluginFiles } from "./plugin-files-query";
import { readListedPaths } from "./plugin-listed-query";

export { fairShare } from "./fair-share";

/** The platform's limit of nodes per query, and the size that keeps a query at one point. */
export const GRAPHQL_BATCH = 100;
/** Error types that mean the repository is gone for us; any other error fails the run. */
const GONE = new Set(["NOT_FOUND", "FORBIDDEN"]);
const COMMIT = /^[0-9a-f]{40}$/;

type BatchData = Record<string, unknown> & { rateLimit?: { cost: number; remaining: number; resetAt: string } };

interface GraphError {
  type?: string;
  path?: Array<string | number>;
  message: string;
}

export interface GraphFetch {
  gate: UpstreamGate;
  /** Files whose presence at HEAD (holding `contains`, when given) is evidence: db/discovery.json `evidence.files`. */
  files: DiscoveryRules["evidence"]["files"];
  /** Reads the manifests each repository field brings (and the follow-up query's SKILL.md files). */
  manifests: ManifestReader;
  /** Read every file at this commit rather than at HEAD (an approved commit, fetch-at-commit.ts). */
  commit?: string;
}

/** The query as sent: at HEAD, or at `options.commit` when one is given. */
const asked = (query: string, options: GraphFetch) => (options.commit ? atCommit(query, options.commit) : query);

/** The fragment every repository field spreads: facts, one `object` per evidence file, the manifests. */
function fragment(files: GraphFetch["files"], ownerFile: string): string {
  const at = (path: string) => `object(expression: ${JSON.stringify(`HEAD:${path}`)})`;
  const objects = files.map(
    ({ path, contains }, i) => `f${i}: ${at(path)} { __typename${contains ? " ... on Blob { text }" : ""} }`,
  );
  // The default branch's head: the commit HEAD names while this query reads the files.
  const head = "defaultBranchRef { target { oid } }";
  return `fragment Repo on Repository { ${REPO_FIELDS}\n  ${[...objects, head, manifestSelection(ownerFile)].join("\n  ")} }`;
}

function batchQuery(ids: string[], options: GraphFetch): { query: string; variables: Record<string, string> } {
  const variables: Record<string, string> = {};
  const declarations: string[] = [];
  const fields: string[] = [];
  ids.forEach((id, i) => {
    const [owner, name] = id.split("/") as [string, string];
    variables[`o${i}`] = owner;
    variables[`n${i}`] = name;
    declarations.push(`$o${i}: String!, $n${i}: String!`);
    fields.push(`r${i}: repository(owner: $o${i}, name: $n${i}) { ...Repo }`);
  });
  const query = `query Repos(${declarations.join(", ")}) {
  rateLimit { cost remaining resetAt }
  ${fields.join("\n  ")}
}
${fragment(options.files, options.manifests.ownerFile)}`;
  return { query: asked(query, options), variables };
}

async function runBatch(
  gh: GitHub,
  ids: string[],
  options: GraphFetch,
): Promise<{ data: BatchData; errors: GraphError[] }> {
  const { query, variables } = batchQuery(ids, options);
  try {
    return { data: await gh.octokit.graphql<BatchData>(query, variables), errors: [] };
  } catch (error) {
    if (!(error instanceof GraphqlResponseError)) throw error;
    const errors = error.errors as GraphError[];
    const fatal = errors.filter((e) => !GONE.has(e.type ?? ""));
    if (fatal.length > 0 || !error.data) throw error;
    return { data: error.data as BatchData, errors };
  }
}

/** The head commit the query read the files at, when the platform named one as a full SHA-1. */
function headCommit(node: Record<string, unknown>): string | undefined {
  const ref = node.defaultBranchRef as { target?: { oid?: unknown } } | null | undefined;
  const oid = ref && typeof ref === "object" ? ref.target?.oid : undefined;
  return typeof oid === "string" && COMMIT.test(oid) ? oid : undefined;
}

interface Read {
  outcome: Outcome;
  /** The commit the manifests were read at. */
  commit?: string;
  reading: ManifestReading | null;
  /** Hook scripts its hooks.json names, read for risk notes in the follow-up query. */
  scripts?: string[];
  /** The follow-up query's answer for this repository, when one was asked (its context files are read there). */
  followUp?: Record<string, unknown> | null;
  /** The fields the batch and the follow-up rounds brought so far: a later round does not ask them again. */
  known?: KnownFields;
}

function outcomeOf(node: Record<string, unknown>, options: GraphFetch): Read {
  const facts = options.gate.facts(fromGraph(node));
  if (!facts) return { outcome: { kind: "gone", reason: "left out: not a repository name" }, reading: null };
  const files = options.files
    .filter(({ contains }, i) => {
      const object = node[`f${i}`] as { __typename?: unknown; text?: unknown } | null | undefined;
      if (!object || typeof object !== "object") return false;
      return contains === undefined || (typeof object.text === "string" && object.text.includes(contains));
    })
    .map((f) => f.path);
  const text = (node.m_marketplace as { text?: unknown } | null)?.text;
  const readable = typeof text === "string" && Buffer.byteLength(text) <= DEFAULT_SOURCE_LIMITS.listMaxBytes;
  const lists = readable ? listedInManifest(text, options.gate, `manifest of ${facts.full_name}`) : [];
  // Read at a commit, the root tree is null when the platform does not know that commit.
  if (options.commit && node[alias("root")] === null) {
    return { outcome: { kind: "gone", reason: `the platform does not know commit ${options.commit}` }, reading: null };
  }
  const reading = options.manifests.read(node, facts.full_name);
  const outcome: Outcome = { kind: "fetched", facts, etag: null, files, lists };
  const known = new KnownFields();
  known.learn(manifestSelection(options.manifests.ownerFile), node);
  return { outcome, reading, scripts: hookScripts(node), commit: options.commit ?? headCommit(node), known };
}

const needsSkills = (reading: ManifestReading) => reading.skillDirs.length > 0 || reading.skillLists.length > 0;
const needsFollowUp = (reading: ManifestReading) =>
  needsSkills(reading) || reading.pluginFolders.length > 0 || contextFileCount(reading.context) > 0;

/** Repositories of one follow-up query: one query per batch at most. */
const SKILL_REPOS = GRAPHQL_BATCH;
/** SKILL.md files one follow-up query reads at most, shared evenly among its repositories. */
export const SKILL_FILES_PER_QUERY = 1000;
/** Plugin `skills/` folders one follow-up query lists at most (those outside `plugins/<p>`), shared likewise. */
export const SKILL_LISTS_PER_QUERY = 200;
/** Plugin folders one follow-up query reads at most (about five files each), shared likewise. */
export const PLUGIN_FOLDERS_PER_QUERY = 400;

/**
 * The first follow-up round of a batch: the SKILL.md of each repository's skill folders (their
 * names came in the batch's trees), plugin folders, hook scripts and context files. One query when
 * the batch's repositories fit its caps together; big ones get queries of their own, at most
 * ROUNDS_PER_FOLLOW_UP. Completes each reading; a failed query leaves its repositories' skills unread.
 */
async function readSkills(gh: GitHub, reads: Array<{ id: string; read: Read }>, options: GraphFetch): Promise<void> {
  const todo = reads
    .filter((r) => r.read.reading && (needsFollowUp(r.read.reading) || (r.read.scripts?.length ?? 0) > 0))
    .slice(0, SKILL_REPOS);
  const rounds = packRounds(
    todo,
    ({ read }) => {
      const r = read.reading!;
      return [r.skillDirs.length, r.skillLists.length, r.pluginFolders.length, contextFileCount(r.context)];
    },
    [SKILL_FILES_PER_QUERY, SKILL_LISTS_PER_QUERY, PLUGIN_FOLDERS_PER_QUERY, CONTEXT_FILES_PER_QUERY],
  );
  for (const round of rounds) await readSkillRound(gh, round, options);
}

/** One query of the first follow-up round, its reads shared fairly among `todo` within the caps. */
async function readSkillRound(gh: GitHub, todo: Array<{ id: string; read: Read }>, options: GraphFetch): Promise<void> {
  const share = fairShare(
    todo.map((r) => r.read.reading!.skillDirs.length),
    SKILL_FILES_PER_QUERY,
  );
  const listShare = fairShare(
    todo.map((r) => r.read.reading!.skillLists.length),
    SKILL_LISTS_PER_QUERY,
  );
  const folderShare = fairShare(
    todo.map((r) => r.read.reading!.pluginFolders.length),
    PLUGIN_FOLDERS_PER_QUERY,
  );
  for (const { read } of todo) {
    read.reading!.skillDirs = read.reading!.skillDirs.slice(0, share);
    read.reading!.skillLists = read.reading!.skillLists.slice(0, listShare);
    read.reading!.pluginFolders = read.reading!.pluginFolders.slice(0, folderShare);
  }
  const files = fairShare(
    todo.map((r) => contextFileCount(r.read.reading!.context)),
    CONTEXT_FILES_PER_QUERY,
  );
  for (const { read } of todo) shareContextFiles(read.reading!.context, files);
  const asks = todo.map(({ read }) => {
    const facts = (read.outcome as Extract<Outcome, { kind: "fetched" }>).facts;
    const { skillDirs, skillLists, context, pluginFolders } = read.reading!;
    const selection = [
      skillSelection(skillDirs, skillLists),
      scriptSelection(read.scripts ?? []),
      contextSelection(context),
      partsSelection(pluginFolders),
    ].filter(Boolean);
    return { id: facts.full_name, selection: selection.join("\n  "), known: read.known };
  });
  const { answers, asked } = await askMissing(gh, "Skills", asks, options.commit);
  if (asked) gh.usage.skillQueries++;
  todo.forEach(({ read }, i) => {
    const node = answers[i];
    read.followUp = node ?? null;
    const reading = read.reading!;
    const objects = new Map(reading.skillDirs.map((dir, k) => [dir, node?.[`k${k}`]]));
    const lists = new Map(reading.skillLists.map((path, k) => [path, node?.[`l${k}`]]));
    const outcome = read.outcome as Extract<Outcome, { kind: "fetched" }>;
    if (needsSkills(reading))
      reading.details = options.manifests.finishSkills(reading, { objects, lists }, outcome.facts.full_name);
    options.manifests.finishPlugins(reading, node ?? null, outcome.facts.full_name);
    if (read.scripts?.length) Object.assign(reading.details, withScriptRisk(reading.details.risk, read.scripts, node));
  });
}

/** Hands a reading's details and evidence to its outcome, once they passed their schema. */
function settle(read: Read, options: GraphFetch): Outcome {
  const { outcome, reading } = read;
  if (outcome.kind !== "fetched" || reading === null) return outcome;
  if (read.commit !== undefined && reading.details.contents) reading.details.contents.commit = read.commit;
  finishContext(reading, read.followUp ?? null);
  const details = options.manifests.checked(reading.details, outcome.facts.full_name);
  if (details) outcome.details = details;
  if (reading.packages.npm || reading.packages.pypi) outcome.packages = reading.packages;
  if (reading.evidence.length) outcome.files = [...(outcome.files ?? []), ...reading.evidence];
  if (reading.excluded) outcome.excludedByOwner = true;
  return outcome;
}

/** Fetches `ids` batch by batch, handing each batch's outcomes (keyed by lowercased asked id) to `onBatch`. */
export async function fetchGraph(
  gh: GitHub,
  ids: string[],
  options: GraphFetch,
  onBatch: (outcomes: Array<[string, Outcome]>) => void,
): Promise<void> {
  for (let start = 0; start < ids.length; start += GRAPHQL_BATCH) {
    const batch = ids.slice(start, start + GRAPHQL_BATCH);
    const { data, errors } = await runBatch(gh, batch, options);
    gh.usage.batchQueries++;
    const rate = data.rateLimit;
    if (rate) gh.usage.addPoints(Number(rate.cost) || 0, Number(rate.remaining) || 0, String(rate.resetAt));
    const reasons = new Map(errors.map((e) => [String(e.path?.[0]), e.type ?? "NOT_FOUND"]));
    const reads = batch.map((id, i) => {
      const node = data[`r${i}`];
      const read: Read =
        node && typeof node === "object"
          ? outcomeOf(node as Record<string, unknown>, options)
          : { outcome: { kind: "gone", reason: reasons.get(`r${i}`) ?? "NOT_FOUND" }, reading: null };
      return { id, read };
    });
    await readSkills(gh, reads, options);
    await readListedPaths(gh, reads, options.manifests, options.commit);
    await readPluginFiles(gh, reads, options.manifests.gate, options.commit);
    onBatch(reads.map(({ id, read }): [string, Outcome] => [id.toLowerCase(), settle(read, options)]));
  }
}

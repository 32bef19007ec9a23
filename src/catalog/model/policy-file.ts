/**
 * Reads the policy file (YAML or JSON, policy.ts): every key checked, and every error names the
 * file and the line, so a bad file stops the start or the refresh before anything is served from
 * it. A missing file is no policy: the public catalog.
 */
import { existsSync, readFileSync } from "node:fs";
import { isMap, isScalar, isSeq, LineCounter, type Node, parseDocument, type YAMLMap } from "yaml";
import { HARNESSES } from "./details";
import { OWNER_PATTERN, REPO_ID_PATTERN } from "./names";
import type { Policy, PolicyEntry, PolicyRequire } from "./policy";
import { RISK_RULES } from "./risk";

export class PolicyError extends Error {}

const OWNER = new RegExp(OWNER_PATTERN);
const REPO = new RegExp(REPO_ID_PATTERN);
const COMMIT = /^[0-9a-f]{40}$/;
const TOP_KEYS = ["allow", "deny", "require", "categories"] as const;
const REQUIRE_KEYS = [
  "licences",
  "verified_owner",
  "packages_verified",
  "scorecard_min",
  "advisories",
  "risk_rules_absent",
  "context_max",
  "archived",
  "harnesses",
] as const;

class Reader {
  constructor(
    private readonly file: string,
    private readonly lines: LineCounter,
  ) {}

  fail(node: Node | null | undefined, message: string): never {
    const at = node?.range ? this.lines.linePos(node.range[0]) : { line: 1, col: 1 };
    throw new PolicyError(`${this.file}:${at.line}:${at.col}: ${message}`);
  }

  map(node: Node | null | undefined, what: string, keys: readonly string[]): Map<string, Node> {
    if (!isMap(node)) this.fail(node, `${what} must be a mapping`);
    const out = new Map<string, Node>();
    for (const pair of (node as YAMLMap).items) {
      const key = pair.key as Node;
      const name = isScalar(key) ? String(key.value) : "";
      if (!keys.includes(name)) this.fail(key, `unknown key "${name}" in ${what} (known: ${keys.join(", ")})`);
      if (out.has(name)) this.fail(key, `"${name}" is given twice in ${what}`);
      out.set(name, (pair.value as Node | null) ?? key);
    }
    return out;
  }

  seq(node: Node, what: string): Node[] {
    if (!isSeq(node)) this.fail(node, `${what} must be a list`);
    return node.items as Node[];
  }

  string(node: Node, what: string, pattern?: RegExp, allowed?: readonly string[]): string {
    if (!isScalar(node) || typeof node.value !== "string") this.fail(node, `${what} must be a string`);
    const value = node.value as string;
    if (pattern && !pattern.test(value)) this.fail(node, `${what} "${value}" is not valid`);
    if (allowed && !allowed.includes(value)) this.fail(node, `${what} "${value}" is not one of ${allowed.join(", ")}`);
    return value;
  }

  strings(node: Node, what: string, allowed?: readonly string[]): string[] {
    const items = this.seq(node, what).map((item) => this.string(item, `an item of ${what}`, undefined, allowed));
    if (items.length === 0) this.fail(node, `${what} must not be empty`);
    return items;
  }

  boolean(node: Node, what: string): boolean {
    if (!isScalar(node) || typeof node.value !== "boolean") this.fail(node, `${what} must be true or false`);
    return node.value as boolean;
  }

  number(node: Node, what: string, min: number, max: number): number {
    const value = isScalar(node) ? node.value : null;
    if (typeof value !== "number" || !Number.isFinite(value) || value < min || value > max) {
      this.fail(node, `${what} must be a number from ${min} to ${max}`);
    }
    return value as number;
  }

  entry(node: Node, what: string, commits: boolean): PolicyEntry {
    const keys = commits ? ["owner", "repo", "commit"] : ["owner", "repo"];
    const m = this.map(node, `an entry of ${what}`, keys);
    if (m.has("owner") === m.has("repo")) this.fail(node, `an entry of ${what} names either an owner or a repo`);
    if (m.has("owner")) {
      if (m.has("commit")) this.fail(m.get("commit"), "a commit is approved for a repo, not an owner");
      return { owner: this.string(m.get("owner")!, "owner", OWNER) };
    }
    const repo = this.string(m.get("repo")!, "repo", REPO);
    const commit = m.get("commit");
    return commit ? { repo, commit: this.string(commit, "commit (40 lowercase hex)", COMMIT) } : { repo };
  }

  require(node: Node): PolicyRequire {
    const m = this.map(node, "require", REQUIRE_KEYS);
    const out: PolicyRequire = {};
    const get = (key: (typeof REQUIRE_KEYS)[number]) => m.get(key);
    if (get("licences")) out.licences = this.strings(get("licences")!, "require.licences");
    if (get("verified_owner")) out.verified_owner = this.boolean(get("verified_owner")!, "require.verified_owner");
    if (get("packages_verified"))
      out.packages_verified = this.boolean(get("packages_verified")!, "require.packages_verified");
    if (get("scorecard_min")) out.scorecard_min = this.number(get("scorecard_min")!, "require.scorecard_min", 0, 10);
    if (get("advisories")) {
      this.string(get("advisories")!, "require.advisories", undefined, ["none"]);
      out.advisories = "none";
    }
    if (get("risk_rules_absent")) {
      out.risk_rules_absent = this.strings(
        get("risk_rules_absent")!,
        "require.risk_rules_absent",
        RISK_RULES,
      ) as PolicyRequire["risk_rules_absent"];
    }
    if (get("context_max"))
      out.context_max = this.number(get("context_max")!, "require.context_max", 0, Number.MAX_SAFE_INTEGER);
    if (get("archived")) out.archived = this.boolean(get("archived")!, "require.archived");
    if (get("harnesses"))
      out.harnesses = this.strings(get("harnesses")!, "require.harnesses", HARNESSES) as PolicyRequire["harnesses"];
    return out;
  }
}

/**
 * The policy in `text`; throws PolicyError naming `file` and the line. `categoryIds`, when given,
 * are the only ids `categories` may name.
 */
export function parsePolicy(text: string, file: string, categoryIds: readonly string[] | null = null): Policy {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false });
  const reader = new Reader(file, lines);
  const problem = doc.errors[0];
  if (problem) {
    const at = lines.linePos(problem.pos[0]);
    throw new PolicyError(`${file}:${at.line}:${at.col}: ${problem.message.split("\n")[0]}`);
  }
  const root = doc.contents as Node | null;
  if (root === null) return { file, allow: null, deny: [], require: {}, categories: null };
  const top = reader.map(root, "the policy", TOP_KEYS);
  const allow = top.get("allow");
  const deny = top.get("deny");
  const categories = top.get("categories");
  return {
    file,
    allow: allow ? reader.seq(allow, "allow").map((e) => reader.entry(e, "allow", true)) : null,
    deny: deny ? reader.seq(deny, "deny").map((e) => reader.entry(e, "deny", false)) : [],
    require: top.get("require") ? reader.require(top.get("require")!) : {},
    categories: categories ? reader.strings(categories, "categories", categoryIds ?? undefined) : null,
  };
}

/** The policy at `path`, or null when there is no file there; throws PolicyError when it is bad. */
export function loadPolicy(path: string, categoryIds: readonly string[] | null = null): Policy | null {
  if (!existsSync(path)) return null;
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new PolicyError(`${path}:1:1: cannot be read (${(error as Error).message})`);
  }
  return parsePolicy(text, path, categoryIds);
}

/**
 * The fake platform's search syntax, matched like the platform does: qualifiers (`topic:`, `in:`,
 * `stars:`, `created:`, `pushed:`, `fork:`, `archived:`; `filename:`, `path:`, `extension:`, `size:`
 * in code search) and words or "quoted phrases" matched as whole words, never as substrings.
 */
import { type FakeRepo, fullName } from "./github-repos";

/** `>=N`, `>N`, `<=N`, `<N`, `A..B` (either side may be `*`) or an exact value. */
function inRange(value: number, expression: string, parse: (s: string) => number): boolean {
  const op = /^(>=|<=|>|<)(.+)$/.exec(expression);
  if (op) {
    const bound = parse(op[2]!);
    return op[1] === ">="
      ? value >= bound
      : op[1] === "<="
        ? value <= bound
        : op[1] === ">"
          ? value > bound
          : value < bound;
  }
  const range = /^(.+)\.\.(.+)$/.exec(expression);
  if (range) {
    const low = range[1] === "*" ? -Infinity : parse(range[1]!);
    const high = range[2] === "*" ? Infinity : parse(range[2]!);
    return value >= low && value <= high;
  }
  return value === parse(expression);
}

const asDate = (s: string) => {
  const ms = Date.parse(s);
  if (Number.isNaN(ms)) throw new Error(`fake: bad date in search: ${s}`);
  return ms;
};

const wordCache = new Map<string, string[]>();

/** Lowercased words, split where the platform's index splits them: at anything not a letter or digit. */
export function words(text: string): string[] {
  let cached = wordCache.get(text);
  if (!cached) {
    cached = text
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean);
    if (text.length <= 2000) wordCache.set(text, cached);
  }
  return cached;
}

function containsPhrase(haystack: string[], phrase: string[]): boolean {
  if (phrase.length === 0) return true;
  for (let i = 0; i + phrase.length <= haystack.length; i++) {
    if (phrase.every((w, j) => haystack[i + j] === w)) return true;
  }
  return false;
}

interface Parsed {
  qualifiers: Array<[string, string]>;
  /** Each a bare word or a quoted phrase, as words. */
  terms: string[][];
}

function parse(q: string): Parsed {
  const parsed: Parsed = { qualifiers: [], terms: [] };
  for (const [, quoted, bare] of q.matchAll(/"([^"]*)"|(\S+)/g)) {
    if (quoted !== undefined) {
      parsed.terms.push(words(quoted));
      continue;
    }
    const colon = bare!.indexOf(":");
    if (colon > 0) parsed.qualifiers.push([bare!.slice(0, colon).toLowerCase(), bare!.slice(colon + 1)]);
    else parsed.terms.push(words(bare!));
  }
  return parsed;
}

const stringTopics = (repo: FakeRepo) => repo.topics.filter((t): t is string => typeof t === "string");

/** The words of each field a repository search looks in (`in:` narrows it; the default is all three). */
function fieldWords(repo: FakeRepo, fields: string[]): string[][] {
  return fields.map((field) => {
    if (field === "name") return words(repo.name);
    if (field === "description") return words(repo.description ?? "");
    if (field === "topics") return stringTopics(repo).flatMap(words);
    throw new Error(`fake: unsupported in:${field}`);
  });
}

/** Whether a repository matches a repository-search query. */
export function matchesRepoQuery(repo: FakeRepo, q: string): boolean {
  const { qualifiers, terms } = parse(q);
  let fields = ["name", "description", "topics"];
  for (const [key, value] of qualifiers) {
    switch (key) {
      case "topic":
        if (!stringTopics(repo).includes(value.toLowerCase())) return false;
        break;
      case "stars":
        if (!inRange(Number(repo.stars), value, Number)) return false;
        break;
      case "created":
        if (!inRange(Date.parse(repo.created_at), value, asDate)) return false;
        break;
      case "pushed":
        if (!inRange(Date.parse(repo.pushed_at), value, asDate)) return false;
        break;
      case "archived":
        if (String(repo.archived) !== value) return false;
        break;
      case "fork":
        break;
      case "in":
        fields = value.toLowerCase().split(",");
        break;
      default:
        throw new Error(`fake: unsupported qualifier ${key}:`);
    }
  }
  const haystacks = fieldWords(repo, fields);
  return terms.every((term) => haystacks.some((h) => containsPhrase(h, term)));
}

export interface CodeHit {
  repo: FakeRepo;
  path: string;
}

/** The files a code-search query matches in one repository. */
export function matchCode(repo: FakeRepo, q: string): CodeHit[] {
  const { qualifiers, terms } = parse(q);
  return Object.entries(repo.files)
    .filter(([path, content]) => {
      const name = path.slice(path.lastIndexOf("/") + 1);
      const dir = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "";
      for (const [key, value] of qualifiers) {
        if (key === "filename" && name.toLowerCase() !== value.toLowerCase()) return false;
        if (key === "extension" && !name.toLowerCase().endsWith(`.${value.toLowerCase()}`)) return false;
        if (key === "path" && !`/${dir}/`.toLowerCase().includes(`/${value.replace(/^\/|\/$/g, "").toLowerCase()}/`))
          return false;
        if (key === "size" && !inRange(Buffer.byteLength(content), value, Number)) return false;
        if (!["filename", "extension", "path", "size"].includes(key))
          throw new Error(`fake: unsupported code qualifier ${key}:`);
      }
      const contentWords = words(content);
      return terms.every((term) => containsPhrase(contentWords, term));
    })
    .map(([path]) => ({ repo, path }));
}

/** The platform's best-match order is opaque; stars then id is a stable stand-in. */
export function searchOrder(a: FakeRepo, b: FakeRepo): number {
  return Number(b.stars) - Number(a.stars) || a.id - b.id;
}

export { fullName };

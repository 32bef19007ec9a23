/** The fake platform's search syntax: the qualifiers the refresher uses, matched like the platform does. */
import { fullName, type FakeRepo } from "./github-repos";

/** `>=N`, `>N`, `<=N`, `<N`, `A..B` (either side may be `*`) or an exact value. */
function inRange(value: number, expression: string, parse: (s: string) => number): boolean {
  const op = /^(>=|<=|>|<)(.+)$/.exec(expression);
  if (op) {
    const bound = parse(op[2]!);
    return op[1] === ">=" ? value >= bound : op[1] === "<=" ? value <= bound : op[1] === ">" ? value > bound : value < bound;
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

/** Whether a repository matches a repository-search query. */
export function matchesRepoQuery(repo: FakeRepo, q: string): boolean {
  return q.trim().split(/\s+/).every((term) => {
    const [key, ...rest] = term.split(":");
    const value = rest.join(":");
    switch (rest.length ? key : "") {
      case "topic": return repo.topics.includes(value.toLowerCase());
      case "stars": return inRange(repo.stars, value, Number);
      case "created": return inRange(Date.parse(repo.created_at), value, asDate);
      case "pushed": return inRange(Date.parse(repo.pushed_at), value, asDate);
      case "archived": return String(repo.archived) === value;
      default: return `${fullName(repo)} ${repo.description ?? ""}`.toLowerCase().includes(term.toLowerCase());
    }
  });
}

/** Whether a repository holds a file the code-search query names (only the marketplace manifest exists here). */
export function matchesCodeQuery(repo: FakeRepo, q: string): boolean {
  return repo.marketplace && /filename:marketplace\.json/.test(q);
}

/** The platform's best-match order is opaque; stars then id is a stable stand-in. */
export function searchOrder(a: FakeRepo, b: FakeRepo): number {
  return b.stars - a.stars || a.id - b.id;
}

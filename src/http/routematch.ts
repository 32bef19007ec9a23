/**
 * Matches a request path against the app's route patterns, the way the router does (a trailing
 * slash is optional, `:name` is one segment, `*` is the rest), so guards that run before routing
 * can tell an unknown path (404) from a known one asked with the wrong method (405).
 */

function escape(text: string): string {
  return text.replace(/[.+?^${}()|[\]\\]/g, "\\$&");
}

/** A regular expression for one route pattern such as `/api/v1/plugins/:owner/:repo`. */
export function patternRegExp(pattern: string): RegExp {
  const body = pattern
    .replace(/\/+$/, "")
    .split("/")
    .map((segment) => (segment.startsWith(":") ? "[^/]+" : segment === "*" ? ".*" : escape(segment)))
    .join("/");
  return new RegExp(`^${body}/?$`);
}

/** Compiles the patterns once per route-table size and answers whether a path matches any. */
export class RouteMatcher {
  private compiled: RegExp[] = [];
  private compiledFor = -1;

  constructor(private readonly patterns: () => readonly string[]) {}

  matches(path: string): boolean {
    const patterns = this.patterns();
    if (patterns.length !== this.compiledFor) {
      this.compiled = [...new Set(patterns)].map(patternRegExp);
      this.compiledFor = patterns.length;
    }
    return this.compiled.some((re) => re.test(path));
  }
}

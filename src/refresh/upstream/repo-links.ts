/** Where a registry's metadata points: a GitHub repository named by a URL, or an MCP registry name's owner. */

const GITHUB_PATH = /^\/([A-Za-z0-9][A-Za-z0-9-]{0,38})\/([A-Za-z0-9._-]{1,100}?)(?:\.git)?(?:\/.*)?$/;

/**
 * `owner/name` of a GitHub repository address in any form npm and PyPI metadata use
 * (`git+https://github.com/o/r.git`, `git@github.com:o/r`, `github:o/r`, `o/r`, `https://github.com/o/r/tree/main`), or null.
 */
export function githubRepo(value: unknown): string | null {
  if (typeof value !== "string" || value.length > 500) return null;
  let text = value.trim();
  const shorthand = /^(?:github:)?([A-Za-z0-9][A-Za-z0-9-]{0,38}\/[A-Za-z0-9._-]{1,100})$/.exec(text);
  if (shorthand) return shorthand[1]!.replace(/\.git$/, "");
  text = text.replace(/^git\+/, "").replace(/^git@github\.com:/i, "https://github.com/");
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (!/^(?:https?|git|ssh|git\+ssh):$/.test(url.protocol)) return null;
  if (!/^(?:www\.)?github\.com$/i.test(url.hostname)) return null;
  const match = GITHUB_PATH.exec(url.pathname);
  return match ? `${match[1]}/${match[2]}` : null;
}

/** The GitHub owner an MCP registry name `io.github.<owner>/<name>` proves, or null for other namespaces. */
export function mcpNameOwner(value: unknown): string | null {
  if (typeof value !== "string") return null;
  return /^io\.github\.([A-Za-z0-9][A-Za-z0-9-]{0,38})\/[A-Za-z0-9._-]{1,100}$/.exec(value.trim())?.[1] ?? null;
}

/** An MCP registry name `io.github.<owner>/<name>` as written, or null for other forms and namespaces. */
export function mcpNameOf(value: unknown): string | null {
  return mcpNameOwner(value) === null ? null : (value as string).trim();
}

/** The `mcp-name: io.github.<owner>/<name>` line the MCP registry asks PyPI packages to carry in their description. */
export function mcpNameInText(text: unknown): string | null {
  if (typeof text !== "string") return null;
  const found = /mcp-name:\s*(io\.github\.[A-Za-z0-9-]{1,39}\/[A-Za-z0-9._-]{1,100})/.exec(text.slice(0, 200_000));
  return found ? mcpNameOf(found[1]) : null;
}

/**
 * What a marketplace entry installs beyond its source, as the author's marketplace.json says it:
 * `strict`, the component lists and paths (`skills`, `commands`, `agents`, `hooks`, `mcpServers`),
 * `version`, and the source's `ref` and `sha`. The refresh reads them through the manifest gate
 * (refresh/manifests/marketplace-entry.ts) and the catalog's Claude Code marketplaces serve them
 * with the entry, so its install is the author's. A record read before the catalog kept them has none.
 */
import { type Static, Type } from "@sinclair/typebox";

/** A path segment Claude Code and the platform both take as it is: never `.` or `..`. */
const SEGMENT = String.raw`(?!\.\.?(?:/|$))[A-Za-z0-9._@+-]+`;
/** A component path as the client requires it: `./` then segments, relative to the plugin's folder (`./` is the folder itself). */
export const ENTRY_PATH = new RegExp(String.raw`^\./(?:${SEGMENT}(?:/|$))*$`);
/** A folder of the repository, without `./`: where an entry is served from. */
export const FOLDER_PATH = new RegExp(`^${SEGMENT}(?:/${SEGMENT})*$`);
/** A version as a manifest writes it (`1.2.0`, `2026.08.1-beta+3`). */
export const ENTRY_VERSION = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,99}$/;
/** A git ref the client takes (`main`, `v1.2.0`, `release/2026`). */
export const ENTRY_REF = /^[A-Za-z0-9._/+-]{1,200}$/;
/** Paths kept per list; an entry naming more is not served. */
export const MAX_ENTRY_PATHS = 100;
/** The component fields carried over, in the order they are served. */
export const ENTRY_LISTS = ["skills", "commands", "agents", "hooks", "mcpServers"] as const;
export type EntryList = (typeof ENTRY_LISTS)[number];

const Path = Type.String({ minLength: 2, maxLength: 300, pattern: ENTRY_PATH.source });
const Paths = Type.Union([Path, Type.Array(Path, { minItems: 1, maxItems: MAX_ENTRY_PATHS })]);

export const PluginEntrySchema = Type.Object(
  {
    strict: Type.Optional(Type.Boolean({ description: "false: the entry is the plugin's whole manifest." })),
    version: Type.Optional(Type.String({ pattern: ENTRY_VERSION.source })),
    ref: Type.Optional(Type.String({ pattern: ENTRY_REF.source, description: "The source's branch or tag." })),
    sha: Type.Optional(Type.String({ pattern: "^[0-9a-f]{40}$", description: "The source's pinned commit." })),
    skills: Type.Optional(Paths),
    commands: Type.Optional(Paths),
    agents: Type.Optional(Paths),
    hooks: Type.Optional(Paths),
    mcpServers: Type.Optional(Paths),
    root: Type.Optional(
      Type.String({
        maxLength: 300,
        pattern: FOLDER_PATH.source,
        description:
          "The folder a repository-root entry with a `skills` list is served from (a `git-subdir`, its paths " +
          "taken relative to it): Claude Code scopes such an entry to its list only for a relative source.",
      }),
    ),
    unserved: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: "Why the catalog's marketplaces leave the entry out: its install could not be the author's.",
      }),
    ),
  },
  {
    additionalProperties: false,
    description:
      "What the entry installs beyond its source, as its marketplace.json says it (paths relative to the " +
      "plugin's folder); absent on entries read before the catalog kept it, and when there is nothing to carry " +
      "(`{}` on a git source naming the repository itself: it pins nothing).",
  },
);

export type PluginEntry = Static<typeof PluginEntrySchema>;

const GITHUB = /^(?:https:\/\/github\.com\/|git@github\.com:)?([A-Za-z0-9-]+\/[A-Za-z0-9._-]+?)(?:\.git)?\/?$/;

/** A folder path inside the repository (`""` for its root), or null for one with `.` or `..` parts. */
export function folderPath(path: string): string | null {
  const clean = path.replace(/^\.\/?/, "").replace(/\/+$/, "");
  return clean.split("/").some((part) => part === ".." || part === ".") ? null : clean;
}

/**
 * The repository on github.com and the folder a git source's listed text names (`owner/repo`, an
 * https or `git@` address, either with `//<path>`: refresh/manifests/marketplace-sources.ts), or null.
 */
export function gitTarget(text: string): { repo: string; path: string } | null {
  const cut = text.indexOf("//", text.startsWith("https://") ? 8 : 0);
  const repo = GITHUB.exec(cut < 0 ? text : text.slice(0, cut))?.[1];
  const path = cut < 0 ? "" : folderPath(text.slice(cut + 2));
  return repo === undefined || path === null || (path === "" && cut >= 0) ? null : { repo, path };
}

/** Whether a git source's listed text names repository `id` itself. */
export const namesItself = (text: string, id: string) => gitTarget(text)?.repo.toLowerCase() === id.toLowerCase();

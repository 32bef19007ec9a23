/**
 * A marketplace entry's plugin `source`, every kind Claude Code installs: a relative path (`.`,
 * `./`, `./plugins/x`), `github` (`repo`), `url` (a git address), `git-subdir` (a folder of a git
 * repository, `url` an address or a bare `owner/repo`) and `npm` (`package`). Each comes out as a
 * short text for the listing, or with the reason the CLI refuses it.
 */
import { cleanText, isRepoId } from "../upstream/gate";
import { isObject, str } from "./manifest-gate";

export type SourceRead = { text: string } | { refused: string };

const SHA = /^[0-9a-f]{40}$/;
const GIT_URL = /^(?:https:\/\/[A-Za-z0-9.-]+(?::\d{1,5})?\/[A-Za-z0-9._~/-]+|git@[A-Za-z0-9.-]+:[A-Za-z0-9._~/-]+)$/;
const BARE_REPO = /^[a-zA-Z0-9_.-]+\/[a-zA-Z0-9_.-]+$/;
const PATH = /^[A-Za-z0-9._@+/-]+$/;
const REF = /^[A-Za-z0-9._/+-]{1,200}$/;

/** Text that is printable and the same once cleaned, within `max`. */
const plain = (value: string, max: number) => value.length <= max && cleanText(value, max) === value;

/** A `./…` path inside the marketplace, as the CLI accepts it (`.` is its root). */
function relative(source: string): SourceRead {
  if (source === ".") return { text: "./" };
  if (source.split("/").includes(".."))
    return { refused: 'plugin source path contains "..", which Claude Code refuses' };
  if (!source.startsWith("./"))
    return { refused: 'plugin source path does not start with "./", which Claude Code requires' };
  if (!plain(source, 300) || !PATH.test(source)) return { refused: "plugin source path not accepted" };
  return { text: source };
}

/** `ref` and `sha` as the CLI checks them: a sha is a full 40-character lowercase commit. */
function pinRefusal(source: Record<string, unknown>): string | null {
  if (source.sha !== undefined && !(typeof source.sha === "string" && SHA.test(source.sha)))
    return "plugin source sha is not a full 40-character commit, which Claude Code requires";
  if (source.ref !== undefined && !(typeof source.ref === "string" && REF.test(source.ref)))
    return "plugin source ref not accepted";
  return null;
}

/** `owner/repo`, an https address or a `git@` one. */
function gitUrl(url: string | null, bare: boolean): string | null {
  if (url === null || !plain(url, 300) || url.includes("..")) return null;
  return GIT_URL.test(url) || (bare && BARE_REPO.test(url)) ? url : null;
}

/** The source as text (`./plugins/x`, `owner/repo`, an address, `<address>//<path>`, `npm:<package>`) or its refusal. */
export function readSource(source: unknown): SourceRead {
  if (typeof source === "string") return relative(source);
  if (!isObject(source)) return { refused: "plugin source missing" };
  const kind = source.source;
  const pin = kind === "github" || kind === "url" || kind === "git-subdir" ? pinRefusal(source) : null;
  if (pin) return { refused: pin };
  switch (kind) {
    case "github":
      return isRepoId(source.repo) ? { text: source.repo } : { refused: "plugin source repo is not owner/repo" };
    case "url": {
      const url = gitUrl(str(source.url), false);
      return url ? { text: url } : { refused: "plugin source url is not a git address" };
    }
    case "git-subdir": {
      const url = gitUrl(str(source.url), true);
      if (!url) return { refused: "plugin source url is not a git address or owner/repo" };
      const path = str(source.path)?.replace(/^\.\//, "").replace(/\/$/, "");
      if (!path) return { refused: "git-subdir source has no path, which Claude Code requires" };
      if (!plain(path, 200) || !PATH.test(path) || path.split("/").includes(".."))
        return { refused: "git-subdir source path not accepted" };
      return { text: `${url}//${path}` };
    }
    case "npm": {
      const name = str(source.package);
      if (!name || name.includes("..") || !plain(name, 200) || /\s/.test(name))
        return { refused: "npm source package not accepted" };
      return { text: `npm:${name}` };
    }
    case "pip":
      return { refused: "pip sources are documented but Claude Code does not install them" };
    case "git":
      return { refused: 'source kind "git" is not a plugin source in Claude Code (it takes "url")' };
    default:
      return { refused: "plugin source kind unknown to Claude Code" };
  }
}

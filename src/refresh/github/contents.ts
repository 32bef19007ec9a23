/**
 * A file of a repository through the contents API: how curated lists and named marketplaces are
 * read. Past 1 MB the API sends the metadata without the content, so such a file is read again as
 * the raw media type; either way at most the caller's byte cap is kept.
 */
import { type GitHub, statusOf } from "./client";

/** A file's text, at most `maxBytes` of it, and its whole size. */
export interface Contents {
  text: string;
  size: number;
}

/**
 * A file of a repository through the contents API, at most `maxBytes` of it; null when it is not
 * there. Past 1 MB the contents API sends no content (`"encoding": "none"`): the file is then read
 * again as the raw media type.
 */
export async function readContents(gh: GitHub, id: string, path: string, maxBytes: number): Promise<Contents | null> {
  const [owner, repo] = id.split("/") as [string, string];
  const route = "GET /repos/{owner}/{repo}/contents/{path}";
  try {
    const { data } = await gh.octokit.request(route, { owner, repo, path });
    const file = data as { content?: unknown; encoding?: unknown; size?: unknown; type?: unknown };
    const size = Number.isSafeInteger(file.size) ? (file.size as number) : 0;
    let bytes: Buffer;
    if (typeof file.content === "string" && file.encoding === "base64") bytes = Buffer.from(file.content, "base64");
    else if (file.encoding === "none" && file.type === "file" && size > 0) {
      const raw = await gh.octokit.request(route, { owner, repo, path, mediaType: { format: "raw" } });
      bytes = Buffer.from(typeof raw.data === "string" ? raw.data : "");
    } else return null;
    const text = bytes.subarray(0, maxBytes).toString("utf8");
    return { text, size: Math.max(size, bytes.byteLength) };
  } catch (error) {
    if (statusOf(error) === 404) return null;
    throw error;
  }
}

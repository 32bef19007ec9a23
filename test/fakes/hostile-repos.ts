/**
 * Repositories a stranger could make the platform serve, each a named case: counts past 2^53,
 * topics that are not strings, a 1 MB description, 300 topics, a date JavaScript would guess at, a
 * name the platform never allows, control and bidi characters, script and data homepages.
 */
import type { RepoSeed } from "./github-repos";

const ESC = "\u001b";

export const HOSTILE: Record<string, RepoSeed> = {
  bigintStars: { full_name: "hostile/bigint-stars", stars: 2n ** 64n + 1n },
  nonStringTopics: {
    full_name: "hostile/topics-not-strings",
    topics: [1, { name: "x" }, null, "mcp-server", "Not A Topic", ["nested"]],
  },
  megabyteDescription: { full_name: "hostile/megabyte-description", description: "An MCP server. ".repeat(70_000) },
  threeHundredTopics: {
    full_name: "hostile/three-hundred-topics",
    topics: ["mcp-server", ...Array.from({ length: 299 }, (_, i) => `topic-${i}`)],
  },
  createdAtOne: { full_name: "hostile/created-at-one", created_at: "1" },
  pathName: { full_name: "evil/../../etc" },
  controlCharacters: {
    full_name: "hostile/control-characters",
    description: `ok\u0000\u0007\u000b${ESC}[2J${ESC}]0;owned\u0007 line\nbreak \u202Eevil\u202C \u2066isolate\u2069 \u0085c1 \uFFFE end`,
  },
  javascriptHomepage: { full_name: "hostile/javascript-homepage", homepage: "javascript:alert(document.cookie)" },
  dataHomepage: { full_name: "hostile/data-homepage", homepage: "data:text/html,<script>alert(1)</script>" },
};

/** Every hostile case carrying the topic a test searches for, so discovery finds them all. */
export function hostileSeeds(topic: string): RepoSeed[] {
  return Object.values(HOSTILE).map((seed) => {
    const topics = seed.topics ?? [];
    return { ...seed, topics: topics.includes(topic) ? topics : [...topics, topic] };
  });
}

/**
 * A SKILL.md whose front matter nests flow collections `depth` deep: 8 KB at 4,000, under the
 * manifest cap, and costly for a general YAML parser.
 */
export function deepSkill(depth = 4000): string {
  return `---\nname: deep\ndescription: ${"[".repeat(depth)}${"]".repeat(depth)}\n---\n`;
}

/** `count` repositories carrying `topic`, each with a deeply nested SKILL.md. */
export function deepSkillSeeds(count: number, topic: string): RepoSeed[] {
  return Array.from({ length: count }, (_, i) => ({
    full_name: `stranger/deep-skill-${i}`,
    topics: [topic],
    files: { "SKILL.md": deepSkill() },
  }));
}

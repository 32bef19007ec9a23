/** Which names imitate a catalog plugin: the rule of `lookalike_of`, on the cases that tell it apart. */
import { describe, expect, test } from "bun:test";
import { lookalikes } from "../../src/catalog/model/lookalikes";

const plugin = (id: string, stars: number) => ({ id, name: id.split("/")[1]!, stars });
/** The catalog's vocabulary: words many plugin names share. */
const vocabulary = [
  "claude-code-kit",
  "claude-code-tools",
  "claude-skills-pack",
  "mcp-skills",
  "skills-hub",
  "code-mcp",
].map((name, i) => plugin(`vocab${i}/${name}`, 1));
const flagged = (...plugins: Array<ReturnType<typeof plugin>>) => lookalikes([...vocabulary, ...plugins]);

describe("lookalike_of", () => {
  const original = plugin("obra/superpowers", 90_000);

  test("a random suffix, a slip inside the project's own word, or its very name, at a tenth of the stars", () => {
    expect(flagged(original, plugin("cloner/superpowers-x7k2q", 5)).get("cloner/superpowers-x7k2q")).toBe(
      "obra/superpowers",
    );
    expect(flagged(original, plugin("typo/superpowres", 12)).get("typo/superpowres")).toBe("obra/superpowers");
    expect(flagged(original, plugin("fan/superpowers", 40)).get("fan/superpowers")).toBe("obra/superpowers");
  });

  test("not an own plugin, a word added, a suffix without digits, nor one with a tenth of the stars or more", () => {
    expect(flagged(original, plugin("obra/superpowers-x7k2q", 1)).size).toBe(0);
    expect(flagged(original, plugin("lab/superpowers-lab", 30)).size).toBe(0);
    expect(flagged(original, plugin("proud/superpowers-extra", 8)).size).toBe(0);
    expect(flagged(original, plugin("close/superpowers", 20_000)).size).toBe(0);
  });

  test("not the catalog's generic words, nor names that differ in a whole short word", () => {
    expect(flagged(plugin("anthropics/skills", 50_000), plugin("huggingface/skills", 1_000)).size).toBe(0);
    expect(flagged(plugin("a/claude-code", 60_000), plugin("b/claude-code", 40), plugin("c/claude-cod", 2)).size).toBe(
      0,
    );
    expect(flagged(plugin("idosal/git-mcp", 7_000), plugin("dbt-labs/dbt-mcp", 584)).size).toBe(0);
  });
});

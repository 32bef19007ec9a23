import { describe, expect, test } from "bun:test";
import { searchExpressions, toMatchQuery } from "../../src/catalog/search";
import { tagToken } from "../../src/catalog/schema";

const terms = (list: string[] | null) => () => list;

describe("toMatchQuery", () => {
  test("every word is a quoted phrase whose last token is a prefix", () => {
    expect(toMatchQuery("mcp-ser git")).toEqual({
      phrases: [`"git"*`, `"mcp ser"*`],
      all: `"git"* AND "mcp ser"*`,
      name: `name : ("git"* OR "mcp ser"*)`,
      topics: `topics : ("git"* OR "mcp ser"*)`,
    });
    expect(toMatchQuery(`"* ( : -`)).toBeNull();
  });

  test("queries that differ in ASCII case, word order or repeats are one expression", () => {
    expect(toMatchQuery("Git MCP git")).toEqual(toMatchQuery("mcp git"));
    // Only ASCII is folded here; FTS5 folds the rest itself.
    expect(toMatchQuery("ÉCOLE")!.all).toBe(`"École"*`);
  });

  test("a long ASCII word becomes the OR of the index terms it starts", () => {
    const asked: string[] = [];
    const match = toMatchQuery("Server", (prefix) => (asked.push(prefix), ["server", "servers"]));
    expect(asked).toEqual(["server"]);
    expect(match!.all).toBe(`("server" OR "servers")`);
  });

  test("short, non-ASCII, multi-token or unlisted prefixes stay FTS5 prefix queries", () => {
    const lookup = terms(["never"]);
    expect(toMatchQuery("mcp", lookup)!.all).toBe(`"mcp"*`);
    expect(toMatchQuery("café", lookup)!.all).toBe(`"café"*`);
    expect(toMatchQuery("mcp-server", lookup)!.all).toBe(`"mcp server"*`);
    expect(toMatchQuery("configuration", terms(null))!.all).toBe(`"configuration"*`);
    expect(toMatchQuery("nothing", terms([]))!.all).toBe(`"nothing"*`);
  });
});

describe("searchExpressions", () => {
  test("filters are tag terms and the tiers split the matches", () => {
    const match = toMatchQuery("git")!;
    const { matches, tiers } = searchExpressions(match, { category: "agents-workflows", curated: true });
    expect(matches).toBe(`("git"*) AND tags : "${tagToken("cat", "agents-workflows")}" AND tags : "${tagToken("curated")}"`);
    expect(tiers[0]).toBe(`${matches} AND (name : ("git"*))`);
    expect(tiers[2]).toBe(`(${matches}) NOT ((name : ("git"*)) OR (topics : ("git"*)))`);
  });

  test("tag tokens start with an underscore, which no search word can hold", () => {
    expect(tagToken("cat", "mcp")).toBe("_cat6d6370");
    expect(tagToken("cat", "a-b")).not.toBe(tagToken("cat", "ab"));
  });
});

import { describe, expect, test } from "bun:test";
import { tagToken } from "../../src/catalog/model/snapshot-schema";
import { readWords, searchMatch, type TermLookup, toMatchQuery } from "../../src/catalog/search/match";
import { type Synonyms, searchText, synonymsOf } from "../../src/catalog/search/search-text";

const terms = (list: string[] | null) => () => list;
/** The match of `q` as the searcher makes it: read into words first. */
const matchOf = (q: string, lookup?: TermLookup, synonyms?: Synonyms) => toMatchQuery(readWords(q, synonyms), lookup);

describe("toMatchQuery", () => {
  test("every word is a quoted phrase whose last token is a prefix", () => {
    expect(matchOf("mcp-ser git")).toEqual({
      phrases: [`"git"*`, `"mcp ser"*`],
      all: `"git"* AND "mcp ser"*`,
      scored: `"git"* AND "mcp ser"*`,
    });
    expect(matchOf(`"* ( : -`)).toBeNull();
  });

  test("queries that differ in ASCII case, word order or repeats are one expression", () => {
    expect(matchOf("Git MCP git")).toEqual(matchOf("mcp git"));
    // Only ASCII is folded here; FTS5 folds the rest itself.
    expect(matchOf("ÉCOLE")!.all).toBe(`"École"*`);
  });

  test("a long ASCII word becomes the OR of the index terms it starts", () => {
    const asked: string[] = [];
    const match = matchOf("Server", (prefix) => (asked.push(prefix), ["server", "servers"]));
    expect(asked).toEqual(["server"]);
    expect(match!.all).toBe(`("server" OR "servers")`);
    // bm25 weighs the word as one prefix phrase, not as rare terms of its own.
    expect(match!.scored).toBe(`"server"*`);
  });

  test("short, non-ASCII, multi-token or unlisted prefixes stay FTS5 prefix queries", () => {
    const lookup = terms(["never"]);
    expect(matchOf("mcp", lookup)!.all).toBe(`"mcp"*`);
    expect(matchOf("café", lookup)!.all).toBe(`"café"*`);
    expect(matchOf("mcp-server", lookup)!.all).toBe(`"mcp server"*`);
    expect(matchOf("configuration", terms(null))!.all).toBe(`"configuration"*`);
    expect(matchOf("nothing", terms([]))!.all).toBe(`"nothing"*`);
  });
});

describe("searchMatch", () => {
  test("filters are tag terms of the match", () => {
    const match = matchOf("git")!;
    expect(searchMatch(match, { category: "agents-workflows", curated: true })).toBe(
      `("git"*) AND tags : "${tagToken("cat", "agents-workflows")}" AND tags : "${tagToken("curated")}"`,
    );
    expect(searchMatch(match, { category: null, curated: false, archived: true })).toBe(
      `(("git"*)) NOT tags : "${tagToken("active")}"`,
    );
  });

  test("synonyms, symbols and Chinese are read as the index reads them", () => {
    const synonyms = synonymsOf([["kubernetes", "k8s"]]);
    expect(matchOf("K8s helm", undefined, synonyms)!.all).toBe(`"helm"* AND "kubernetes"*`);
    expect(searchText("k8s-mcp and k8sx", synonyms)).toBe("kubernetes-mcp and k8sx");
    expect(matchOf("c++")!.all).toBe(`"cplusplus"*`);
    expect(matchOf("C# .NET")!.all).toBe(`"csharp"* AND "dotnet"*`);
    expect(searchText("a c++ and c# library for .net, not abc++")).toBe(
      "a cplusplus and csharp library for dotnet, not abc++",
    );
    expect(searchText("数据库管理工具").trim().split(/\s+/).length).toBeGreaterThan(1);
  });

  test("tag tokens start with an underscore, which no search word can hold", () => {
    expect(tagToken("cat", "mcp")).toBe("_cat6d6370");
    expect(tagToken("cat", "a-b")).not.toBe(tagToken("cat", "ab"));
  });
});

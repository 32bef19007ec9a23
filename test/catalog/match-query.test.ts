import { describe, expect, test } from "bun:test";
import { tagToken } from "../../src/catalog/schema";
import { searchMatch, toMatchQuery } from "../../src/catalog/search";
import { searchText, synonymsOf } from "../../src/catalog/searchtext";

const terms = (list: string[] | null) => () => list;

describe("toMatchQuery", () => {
  test("every word is a quoted phrase whose last token is a prefix", () => {
    expect(toMatchQuery("mcp-ser git")).toEqual({
      phrases: [`"git"*`, `"mcp ser"*`],
      all: `"git"* AND "mcp ser"*`,
      scored: `"git"* AND "mcp ser"*`,
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
    // bm25 weighs the word as one prefix phrase, not as rare terms of its own.
    expect(match!.scored).toBe(`"server"*`);
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

describe("searchMatch", () => {
  test("filters are tag terms of the match", () => {
    const match = toMatchQuery("git")!;
    expect(searchMatch(match, { category: "agents-workflows", curated: true })).toBe(
      `("git"*) AND tags : "${tagToken("cat", "agents-workflows")}" AND tags : "${tagToken("curated")}"`,
    );
    expect(searchMatch(match, { category: null, curated: false, archived: true })).toBe(
      `(("git"*)) NOT tags : "${tagToken("active")}"`,
    );
  });

  test("synonyms, symbols and Chinese are read as the index reads them", () => {
    const synonyms = synonymsOf([["kubernetes", "k8s"]]);
    expect(toMatchQuery("K8s helm", undefined, synonyms)!.all).toBe(`"helm"* AND "kubernetes"*`);
    expect(searchText("k8s-mcp and k8sx", synonyms)).toBe("kubernetes-mcp and k8sx");
    expect(toMatchQuery("c++")!.all).toBe(`"cplusplus"*`);
    expect(toMatchQuery("C# .NET")!.all).toBe(`"csharp"* AND "dotnet"*`);
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

import { afterAll, describe, expect, test } from "bun:test";
import { guardedFetch } from "../../src/refresh/checks/remotes/remote-guard";
import { probeRemote } from "../../src/refresh/checks/remotes/remote-probe";
import { type FakeRemotes, HOSTS, remoteUrl, startFakeRemotes } from "../fakes/mcp-remotes";

const fakes: FakeRemotes = startFakeRemotes();
afterAll(() => fakes.stop());
const options = { timeoutMs: 1500, maxBytes: 1 << 20, allowance: fakes.allowance };

describe("both handshakes: MCP 2026-07-28 first, initialize as the fallback", () => {
  test("a 2026-07-28 server is asked server/discover and tools/list with _meta, never initialize", async () => {
    for (const host of [HOSTS.modern, HOSTS.modernEvents]) {
      const result = await probeRemote(remoteUrl(host), options);
      expect(result.status, host).toBe("answering");
      expect(result.tools, host).toHaveLength(100);
      expect(result.tools[0], host).toEqual({
        name: "search_docs",
        description: "Search the documentation by keyword",
      });
      expect(fakes.methods.get(host), host).toEqual(["server/discover", "tools/list", "tools/list", "tools/list"]);
    }
  });

  test("a server of an earlier revision answers after server/discover fails, through initialize", async () => {
    fakes.methods.delete(HOSTS.answering);
    const result = await probeRemote(remoteUrl(HOSTS.answering), options);
    expect(result.status).toBe("answering");
    expect(result.tools).toHaveLength(100);
    const asked = fakes.methods.get(HOSTS.answering)!;
    expect(asked.slice(0, 2)).toEqual(["server/discover", "initialize"]);
  });

  test("one that wants credentials for server/discover is not asked again the old way", async () => {
    expect((await probeRemote(remoteUrl(HOSTS.modernAuth), options)).status).toBe("auth_required");
    expect(fakes.methods.get(HOSTS.modernAuth)).toEqual(["server/discover"]);
  });
});

describe("a remote MCP server is recorded as what it is", () => {
  test("one that answers: its tools, capped at 100, names checked, descriptions cleaned", async () => {
    const result = await probeRemote(remoteUrl(HOSTS.answering), options);
    expect(result.status).toBe("answering");
    expect(result.tools).toHaveLength(100);
    expect(result.tools[0]).toEqual({ name: "search_docs", description: "Search the documentation by keyword" });
    expect(result.tools.some((t) => t.name === "bad name!")).toBe(false);
  });

  test("one that answers initialize but fails tools/list answers with no tools; one that locks it wants credentials", async () => {
    expect(await probeRemote(remoteUrl(HOSTS.listFails), options)).toEqual({ status: "answering", tools: [] });
    expect((await probeRemote(remoteUrl(HOSTS.listAuth), options)).status).toBe("auth_required");
  });

  test("one that asks for credentials", async () => {
    expect((await probeRemote(remoteUrl(HOSTS.auth), options)).status).toBe("auth_required");
  });

  test("one that serves HTML", async () => {
    const result = await probeRemote(remoteUrl(HOSTS.html), options);
    expect(result).toMatchObject({ status: "not_mcp", reason: "serves HTML" });
  });

  test("one that answers JSON that is not JSON-RPC", async () => {
    expect(await probeRemote(remoteUrl(HOSTS.json), options)).toMatchObject({
      status: "not_mcp",
      reason: "no MCP answer",
    });
  });

  test("a redirect to a public name is followed and checked again; more than three are not", async () => {
    const answering = fakes.hits.get(HOSTS.answering) ?? 0;
    const followed = await probeRemote(remoteUrl(HOSTS.hop), options);
    expect(followed.status).toBe("answering");
    expect(followed.tools).toHaveLength(100);
    expect(fakes.hits.get(HOSTS.answering) ?? 0).toBeGreaterThan(answering);
    const loops = fakes.hits.get(HOSTS.loop) ?? 0;
    expect(await probeRemote(remoteUrl(HOSTS.loop), options)).toMatchObject({
      status: "down",
      reason: "too many redirects",
    });
    // The card request (404), then the handshake's first request and its three redirects: no fourth.
    expect((fakes.hits.get(HOSTS.loop) ?? 0) - loops).toBe(1 + 1 + 3);
  });

  test("one that hangs is down, within the time limit", async () => {
    const started = performance.now();
    const result = await probeRemote(remoteUrl(HOSTS.hang), { ...options, timeoutMs: 400 });
    expect(result).toMatchObject({ status: "down", reason: "no answer in time" });
    expect(performance.now() - started).toBeLessThan(1500);
  });

  test("one redirecting to 127.0.0.1 is down, and the redirect is never followed", async () => {
    const result = await probeRemote(remoteUrl(HOSTS.redirect), options);
    expect(result).toMatchObject({ status: "down", reason: "not https" });
    expect(fakes.privateHits()).toBe(0);
  });

  test("a card address redirecting to 127.0.0.1 is not followed, and the server is still asked", async () => {
    const result = await probeRemote(remoteUrl(HOSTS.cardTrap), options);
    expect(result.status).toBe("answering");
    expect(fakes.privateHits()).toBe(0);
  });

  test("a name resolving to a private address is never connected to", async () => {
    const result = await probeRemote(remoteUrl(HOSTS.private), options);
    expect(result).toMatchObject({ status: "down", reason: "name resolves to an address not public" });
    expect(fakes.privateHits()).toBe(0);
  });

  test("a name that does not resolve is down", async () => {
    expect(await probeRemote(remoteUrl(HOSTS.missing), options)).toMatchObject({ status: "down" });
  });

  test("a server card listing tools answers without a handshake", async () => {
    const before = fakes.hits.get(HOSTS.card) ?? 0;
    const result = await probeRemote(remoteUrl(HOSTS.card), options);
    expect(result).toEqual({ status: "answering", tools: [{ name: "from_card", description: "Listed in the card" }] });
    expect((fakes.hits.get(HOSTS.card) ?? 0) - before).toBe(1);
  });
});

describe("the guard", () => {
  const fetcher = guardedFetch({ maxBytes: 1 << 20, allowance: fakes.allowance });
  const refused = async (url: string) => {
    try {
      await fetcher(url);
      return "sent";
    } catch (error) {
      return (error as Error).message;
    }
  };

  test("refuses plain http, literal internal addresses, metadata hosts and internal names", async () => {
    expect(await refused(`http://${HOSTS.answering}/mcp`)).toBe("not https");
    for (const url of [
      "https://127.0.0.1/mcp",
      "https://[::1]/mcp",
      "https://169.254.169.254/latest/meta-data",
      "https://[fd00:ec2::254]/",
      "https://[::ffff:127.0.0.1]/",
      "https://[::7f00:1]/",
      "https://[::a9fe:a9fe]/latest/meta-data",
      "https://100.64.0.1/",
      "https://10.0.0.1/",
      "https://0.0.0.0/",
    ])
      expect(await refused(url)).toBe("address not public");
    expect(await refused("https://metadata.google.internal/computeMetadata/v1/")).toBe("name not public");
    expect(await refused("https://localhost/")).toBe("name not public");
    expect(await refused(`https://user:secret@${HOSTS.answering}/mcp`)).toBe("credentials in the address");
    expect(fakes.privateHits()).toBe(0);
  });

  test("refuses a name whose DNS answer holds any address that is not public", async () => {
    for (const answer of [
      ["169.254.169.254"],
      ["fd00:ec2::254"],
      ["::ffff:127.0.0.1"],
      ["::ffff:8.8.8.8"],
      ["::7f00:1"],
      ["::a9fe:a9fe"],
      ["::808:808"],
      ["100.100.1.1"],
      ["127.0.0.1", "192.168.1.10"],
      ["fe80::1"],
      ["224.0.0.251"],
      ["0.0.0.0"],
    ]) {
      const resolving = guardedFetch({
        maxBytes: 1000,
        allowance: { resolve: async () => answer, port: () => fakes.allowance.port(HOSTS.private) },
      });
      const message = await resolving(remoteUrl(HOSTS.answering)).then(
        () => "sent",
        (error: Error) => error.message,
      );
      expect([answer, message]).toEqual([answer, "name resolves to an address not public"]);
    }
    expect(fakes.privateHits()).toBe(0);
  });

  test("never sends a cookie or Authorization header", async () => {
    const seen: Array<string | null> = [];
    const echo = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: (r) => {
        seen.push(r.headers.get("cookie"), r.headers.get("authorization"), r.headers.get("proxy-authorization"));
        return new Response("ok");
      },
    });
    try {
      const own = guardedFetch({
        maxBytes: 1000,
        allowance: { resolve: async () => ["127.0.0.1"], port: () => echo.port! },
      });
      const headers = { cookie: "s=1", authorization: "Bearer t", "proxy-authorization": "Basic x" };
      expect(await (await own(remoteUrl(HOSTS.answering), { headers })).text()).toBe("ok");
      expect(seen).toEqual([null, null, null]);
    } finally {
      echo.stop(true);
    }
  });

  test("cuts an answer past the size cap", async () => {
    const small = guardedFetch({ maxBytes: 10, allowance: fakes.allowance });
    // A declared length past the cap is refused at once; an undeclared one while it is read.
    await expect(small(remoteUrl(HOSTS.html)).then((r) => r.text())).rejects.toThrow("answer too large");
    const chunked = await small(remoteUrl(HOSTS.answering), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    }).catch((error: Error) => error);
    const read = chunked instanceof Response ? await chunked.text().catch((e: Error) => e) : chunked;
    expect(read).toBeInstanceOf(Error);
  });
});

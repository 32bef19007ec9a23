/**
 * A remote server's tool names are found like words of its description, and weigh no more: each
 * word once, at most a description's worth of them, so a hundred long names cannot bait a search.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { noDetails } from "../../src/catalog/model/details";
import { plugin, snapshotInput, startServer, type TestServer } from "../helpers";

let server: TestServer;

/** 100 tools of 60-character names: 6,000 characters, past the index's 1,000 for tool names. */
const LONG_TOOLS = Array.from({ length: 100 }, (_, i) => ({
  name: i === 99 ? `lastonly_${"z".repeat(50)}` : `tool${String(i).padStart(2, "0")}${"q".repeat(52)}`,
  description: null,
}));
/** One word repeated in every tool name. */
const REPEATED = Array.from({ length: 100 }, (_, i) => ({ name: `kubernetes_kubernetes_${i}`, description: null }));

beforeAll(() => {
  server = startServer(
    snapshotInput([
      plugin("acme/many-tools", {
        stars: 10,
        description: "Assorted helpers",
        details: { ...noDetails(), tools: LONG_TOOLS },
      }),
      plugin("bait/kube", { stars: 1, description: "Weather", details: { ...noDetails(), tools: REPEATED } }),
      plugin("real/kube", { stars: 1, description: "Kubernetes cluster manager for Kubernetes" }),
    ]),
  );
});
afterAll(() => server.stop());

async function search(q: string): Promise<string[]> {
  const body = await server.json(`/api/v1/plugins?q=${encodeURIComponent(q)}`);
  return body.data.items.map((p: { id: string }) => p.id);
}

/** Whether `q` matched as spelled: a search that finds nothing answers a nearby spelling and names it in a header. */
async function matchedAsSpelled(q: string): Promise<boolean> {
  const response = await server.get(`/api/v1/plugins?q=${encodeURIComponent(q)}`);
  return response.headers.get("x-search-corrected") === null && (await response.json()).data.total > 0;
}

test("the first tool names are found; a name past the cap is not indexed", async () => {
  expect(await search(`tool00${"q".repeat(52)}`)).toEqual(["acme/many-tools"]);
  expect(await matchedAsSpelled(`tool00${"q".repeat(52)}`)).toBe(true);
  expect(await matchedAsSpelled("lastonly")).toBe(false);
});

test("a word repeated in every tool name counts once: it does not outrank a description that says it", async () => {
  expect(await search("kubernetes")).toEqual(["real/kube", "bait/kube"]);
});

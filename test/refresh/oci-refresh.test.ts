/**
 * OCI image ownership end to end: a real refresh over the fake platform and a fake OCI registry
 * (real HTTP servers on 127.0.0.1) marks each image line by the image's own labels; a look-alike
 * listing another's image is marked not its own; with the registry failing, the refresh publishes
 * on time with the lines unknown.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { FakeOciRegistry, type OciMode } from "../fakes/oci-registry";
import { Env, published } from "./support";

const TOPIC = "mcp-server";
const NAME = "io.modelcontextprotocol.server.name";

let env: Env;
let registry: FakeOciRegistry;
afterEach(() => {
  env.stop();
  registry.stop();
});

function serverJson(id: string, identifier: string): string {
  return JSON.stringify({
    $schema: "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
    name: `io.github.${id}`,
    version: "1.0.0",
    repository: { url: `https://github.com/${id}`, source: "github" },
    packages: [{ registryType: "oci", identifier, transport: { type: "stdio" } }],
  });
}

function setUp(mode: OciMode = "ok"): void {
  env = new Env({ searches: [{ query: `topic:${TOPIC}` }] });
  registry = new FakeOciRegistry();
  registry.mode = mode;
  const add = (id: string, stars: number, image: string) =>
    env.github.add({ full_name: id, stars, topics: [TOPIC], files: { "server.json": serverJson(id, image) } });
  add("hub/img", 300, "docker.io/hub/img:1.0.0");
  add("copycat/img", 20, "hub/img:1.0.0");
  add("quiet/img", 10, "quiet/img:2.0.0");
  add("ghost/img", 10, "ghost/img:3.0.0");
  registry.add("hub/img", "1.0.0", { labels: { [NAME]: "io.github.hub/img" }, index: true });
  registry.add("quiet/img", "2.0.0", { labels: {} });
}

const options = (limits = {}) => ({
  registries: {
    npm: null,
    pypi: null,
    oci: registry.url,
    limits: { maxRequests: 200, timeoutMs: 1000, budgetMs: 5000, ...limits },
  },
});

async function verdicts(url: string, id: string) {
  const response = await fetch(`${url}/api/v1/plugins/${id}?include=install`);
  const body = (await response.json()) as { data: { plugin: { install: Array<Record<string, unknown>> } } };
  return body.data.plugin.install.map((i) => [i.package_verified, i.package_note]);
}

describe("OCI images outside ghcr.io", () => {
  test("labels naming the repository leave a line unproven; a look-alike's copy of another's image is not its own", async () => {
    setUp();
    const report = published(await env.refresh(options()));
    const { url } = env.serve();
    // A label is written by whoever pushes the image: outside the owner's ghcr.io namespace it proves nothing.
    const own = [
      false,
      "Unproven: OCI carries this owner's MCP registry name, but whoever publishes a package writes that; no signed provenance or server.json agrees",
    ];
    expect(await verdicts(url, "hub/img")).toEqual([own, own]);
    const copy = [false, "OCI carries another owner's MCP registry name: hub"];
    expect(await verdicts(url, "copycat/img")).toEqual([copy, copy]);
    const quiet = [false, "OCI names no repository for this package"];
    expect(await verdicts(url, "quiet/img")).toEqual([quiet, quiet]);
    const ghost = [false, "OCI registry has no such image"];
    expect(await verdicts(url, "ghost/img")).toEqual([ghost, ghost]);
    expect(report.packages).toMatchObject({ verified: 0, unverified: 8, unproven: 2, unknown: 0, derived: 0 });
    // Two lines and two repositories naming one image cost one read of it.
    const manifestReads = registry.asked.filter((p) => p === "GET /v2/hub/img/manifests/1.0.0");
    expect(manifestReads.length).toBe(2); // the anonymous try and the one with its token
  });

  for (const mode of ["down", "hang"] as const) {
    test(`a registry ${mode}: the refresh publishes on time with the image lines unknown`, async () => {
      setUp(mode);
      const started = Date.now();
      const report = published(await env.refresh(options({ timeoutMs: 300, budgetMs: 1500 })));
      expect(Date.now() - started).toBeLessThan(8000);
      const { url } = env.serve();
      const lines = await verdicts(url, "hub/img");
      expect(lines.map(([verified]) => verified)).toEqual([null, null]);
      expect(String(lines[0]![1])).toMatch(/^OCI not checked: /);
      expect(report.packages?.verified).toBe(0);
    });
  }
});

/**
 * Scorecard, advisories and provenance end to end: the packages world on the fake platform and a
 * fake deps.dev (real HTTP servers on 127.0.0.1). A real refresh asks deps.dev in batches for the
 * exact versions the install lines pin and for each repository's project, stores what passes the
 * gate, caches it, serves it with `include=security` and the `advisories=` filter, and publishes
 * on time with the fields unknown when deps.dev fails in any way.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import type { SecurityOptions } from "../../src/refresh/checks/security/security-checker";
import { formatResult } from "../../src/refresh/report";
import { type DepsDevMode, FakeDepsDev } from "../fakes/depsdev";
import { world } from "../fakes/package-world";
import { FakeRegistries } from "../fakes/registries";
import { Env, published } from "./support";

let env: Env;
let depsDev: FakeDepsDev;
let registries: FakeRegistries;
afterEach(() => {
  env.stop();
  depsDev.stop();
  registries.stop();
});

function options(limits: Partial<SecurityOptions["limits"]> = {}): { security: SecurityOptions } {
  return {
    security: { depsDev: depsDev.url, limits: { maxRequests: 100, timeoutMs: 2000, budgetMs: 10_000, ...limits } },
  };
}

function setUp(mode: DepsDevMode = "ok") {
  env = new Env({ searches: [{ query: "topic:mcp-server" }] });
  env.github.setRemaining("search", 1000);
  registries = new FakeRegistries();
  world(env.github, registries);
  depsDev = new FakeDepsDev();
  depsDev.mode = mode;
  depsDev.version("NPM", "@acme/fs-server", "1.0.0", { advisories: ["GHSA-8jxr-pcg8-qhm5", "CVE-2026-12345"] });
  depsDev.version("NPM", "prov-tool", "2.0.0", {
    provenance: { sourceRepository: "https://github.com/prov/tool", verified: true },
  });
  depsDev.version("PYPI", "pyname-mcp", "1.0.0", { advisories: ["PYSEC-2026-7"] });
  depsDev.version("NPM", "loose-claim", "1.0.0", {});
  depsDev.projects.set("github.com/acme/fs-server", { overallScore: 7.43, date: "2026-11-23T00:00:00Z" });
  depsDev.projects.set("github.com/prov/tool", null);
}

interface Security {
  scorecard: { score: number; date: string } | null;
  scorecard_status: string;
  advisories: string[] | null;
  provenance: boolean | null;
  packages: Array<Record<string, unknown>>;
  checked_at: string | null;
}

async function securityOf(url: string, id: string): Promise<Security | null> {
  const response = await fetch(`${url}/api/v1/plugins/${id}?include=security`);
  return ((await response.json()) as { data: { plugin: { security: Security | null } } }).data.plugin.security;
}

async function ids(url: string): Promise<string[]> {
  const body = (await (await fetch(url)).json()) as { data: { items: Array<{ id: string }> } };
  return body.data.items.map((i) => i.id).sort();
}

describe("Scorecard and advisories from deps.dev", () => {
  test("the pinned versions' advisories and provenance and the repository's Scorecard are stored and served", async () => {
    setUp();
    const result = await env.refresh(options());
    const report = published(result);
    expect(report.security).toMatchObject({ scored: 1, withAdvisories: 3, advisoriesUnknown: 0, scorecardUnknown: 0 });
    expect(formatResult(result).join("\n")).toContain(
      "deps.dev: Scorecard for 1, not scored 11, unknown 0; plugins with advisories 3",
    );
    const { url } = env.serve();
    const fs = await securityOf(url, "acme/fs-server");
    expect(fs).toMatchObject({
      scorecard: { score: 7.4, date: "2026-11-23" },
      scorecard_status: "scored",
      advisories: ["CVE-2026-12345", "GHSA-8jxr-pcg8-qhm5"],
      provenance: false,
      packages: [
        {
          system: "npm",
          name: "@acme/fs-server",
          version: "1.0.0",
          advisories: ["CVE-2026-12345", "GHSA-8jxr-pcg8-qhm5"],
          provenance: null,
        },
      ],
    });
    expect(fs!.checked_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    // A project deps.dev knows without a Scorecard is "not scored", never 0; a verified provenance from here.
    expect(await securityOf(url, "prov/tool")).toMatchObject({
      scorecard: null,
      scorecard_status: "not_scored",
      advisories: [],
      provenance: true,
      packages: [{ provenance: { repository: "prov/tool", verified: true } }],
    });
    // Nothing pinned: no advisories to know; deps.dev does not know the project: not scored.
    expect(await securityOf(url, "solo/weather-mcp")).toMatchObject({
      scorecard_status: "not_scored",
      advisories: null,
      provenance: null,
      packages: [],
    });
    expect(await securityOf(url, "mcpname/pyname")).toMatchObject({ advisories: ["PYSEC-2026-7"] });
    // The look-alike pins the same version: the same advisories, from the one batch.
    expect((await securityOf(url, "acme-tools/fs-server"))!.advisories).toEqual(fs!.advisories);
    const versionBatches = depsDev.asked.filter((a) => a.path === "/v3alpha/versionbatch");
    expect(versionBatches).toHaveLength(1);
    expect(versionBatches[0]!.body.requests).toContainEqual({
      versionKey: { system: "NPM", name: "@acme/fs-server", version: "1.0.0" },
    });
    expect(depsDev.asked.filter((a) => a.path === "/v3alpha/projectbatch")).toHaveLength(1);

    expect(await ids(`${url}/api/v1/plugins?advisories=none&pageSize=50`)).toEqual(["loose/claim", "prov/tool"]);
    expect(await ids(`${url}/api/v1/plugins?advisories=any&pageSize=50`)).toEqual([
      "acme-tools/fs-server",
      "acme/fs-server",
      "mcpname/pyname",
    ]);
    // The plugin page says it beside the install lines; "not scored", never 0.
    const page = await (await fetch(`${url}/plugin/acme/fs-server`)).text();
    expect(page).toContain("<strong>7.4</strong> / 10, scored 2026-11-23");
    expect(page).toContain('<a href="https://osv.dev/vulnerability/GHSA-8jxr-pcg8-qhm5">GHSA-8jxr-pcg8-qhm5</a>');
    expect(page.indexOf('id="security"')).toBeGreaterThan(page.indexOf('id="install"'));
    const prov = await (await fetch(`${url}/plugin/prov/tool`)).text();
    expect(prov).toContain("not scored");
    expect(prov).toContain("no known advisory");
    expect(prov).toContain("(verified provenance)");

    // The browse page takes the filter too, and keeps it through its form.
    const browse = await (await fetch(`${url}/browse?advisories=none`)).text();
    expect(browse).toContain('href="/plugin/prov/tool"');
    expect(browse).not.toContain('href="/plugin/acme/fs-server"');
    expect(browse).toContain('<input type="hidden" name="advisories" value="none"');

    const metrics = await (await fetch(`${url}/metrics`)).text();
    expect(metrics).toContain('catalog_snapshot_security_plugins{signal="scorecard",state="scored"} 1');
    expect(metrics).toContain('catalog_snapshot_security_plugins{signal="scorecard",state="unknown"} 0');
    expect(metrics).toContain('catalog_snapshot_security_plugins{signal="advisories",state="any"} 3');
    expect(metrics).toContain('catalog_snapshot_security_plugins{signal="advisories",state="none"} 2');

    const bad = await fetch(`${url}/api/v1/plugins?advisories=few`);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { code: number; data: null }).data).toBeNull();
  });

  test("lines derived from package files by the package checks are asked about too, after them", async () => {
    setUp();
    depsDev.version("NPM", "weather-mcp", "0.3.0", {
      provenance: { sourceRepository: "https://github.com/solo/weather-mcp", verified: true },
    });
    depsDev.version("PYPI", "py-server", "2.1.0", { advisories: ["GHSA-8jxr-pcg8-qhm5"] });
    const limits = { maxRequests: 500, timeoutMs: 2000, budgetMs: 10_000 };
    published(await env.refresh({ ...options(), registries: { npm: registries.url, pypi: registries.url, limits } }));
    const { url } = env.serve();
    expect(await securityOf(url, "solo/weather-mcp")).toMatchObject({
      advisories: [],
      provenance: true,
      packages: [{ system: "npm", name: "weather-mcp", version: "0.3.0" }],
    });
    expect(await securityOf(url, "pyco/py-server")).toMatchObject({
      advisories: ["GHSA-8jxr-pcg8-qhm5"],
      packages: [{ system: "pypi", name: "py-server", version: "2.1.0" }],
    });
  });

  test("answers are cached beside the snapshot: the next run asks nothing, even with deps.dev down", async () => {
    setUp();
    published(await env.refresh(options()));
    const asked = depsDev.asked.length;
    depsDev.mode = "down";
    published(await env.refresh(options()));
    expect(depsDev.asked.length).toBe(asked);
    const { url } = env.serve();
    expect(await securityOf(url, "acme/fs-server")).toMatchObject({
      scorecard: { score: 7.4 },
      advisories: { length: 2 },
    });
  });

  test("a stale answer is asked again and used while deps.dev does not answer, until it is a month old", async () => {
    setUp();
    const day = 24 * 3_600_000;
    const t0 = Date.now();
    const at = (days: number) => ({ ...options(), now: () => new Date(t0 + days * day) });
    published(await env.refresh(at(0)));
    depsDev.mode = "down";
    const before = depsDev.asked.length;
    published(await env.refresh(at(2)));
    // Versions are kept a day, projects a week: only the versions are asked again.
    expect(depsDev.asked.slice(before).map((a) => a.path)).toEqual(["/v3alpha/versionbatch"]);
    let { url } = env.serve();
    expect(await securityOf(url, "acme/fs-server")).toMatchObject({
      scorecard: { score: 7.4 },
      advisories: ["CVE-2026-12345", "GHSA-8jxr-pcg8-qhm5"],
      checked_at: new Date(t0).toISOString(),
    });
    published(await env.refresh(at(31)));
    ({ url } = env.serve());
    expect(await securityOf(url, "acme/fs-server")).toMatchObject({
      scorecard_status: "unknown",
      advisories: null,
      checked_at: null,
    });
  });

  test("a cache file that fails its schema is not read: everything is asked again", async () => {
    setUp();
    published(await env.refresh(options()));
    const path = `${env.databasePath}-security.json`;
    const cache = JSON.parse(readFileSync(path, "utf8"));
    const key = "npm:@acme/fs-server@1.0.0";
    cache.versions[key].facts.advisories = ["<img src=x onerror=alert(1)>"];
    writeFileSync(path, JSON.stringify(cache));
    const before = depsDev.asked.length;
    published(await env.refresh(options()));
    expect(depsDev.asked.length).toBe(before + 2);
    const { url } = env.serve();
    expect((await securityOf(url, "acme/fs-server"))!.advisories).toEqual(["CVE-2026-12345", "GHSA-8jxr-pcg8-qhm5"]);
  });

  test("the gate drops advisory ids of no known form and a score outside 0..10; pages are followed", async () => {
    setUp();
    depsDev.pageSize = 1;
    depsDev.version("NPM", "@acme/fs-server", "1.0.0", {
      advisories: ["GHSA-8jxr-pcg8-qhm5", "<img src=x onerror=alert(1)>", "GHSA-aaaa-bbbb-cccc", "CVE-2026-1"],
    });
    depsDev.projects.set("github.com/acme/fs-server", { overallScore: 11, date: "2026-11-23T00:00:00Z" });
    depsDev.projects.set("github.com/prov/tool", { overallScore: "9", date: "yesterday" });
    published(await env.refresh(options()));
    const { url } = env.serve();
    const fs = await securityOf(url, "acme/fs-server");
    expect(fs!.advisories).toEqual(["GHSA-8jxr-pcg8-qhm5"]);
    // A Scorecard that fails the gate is no answer: unknown, neither scored nor "not scored".
    expect(fs).toMatchObject({ scorecard: null, scorecard_status: "unknown" });
    expect(await securityOf(url, "prov/tool")).toMatchObject({ scorecard: null, scorecard_status: "unknown" });
    expect(depsDev.asked.filter((a) => a.body.pageToken !== undefined).length).toBeGreaterThan(0);
  });

  for (const mode of ["down", "429", "malformed", "oversize", "wrong-shape", "garbage", "hang"] as const) {
    test(`deps.dev ${mode}: the refresh publishes on time with the fields unknown`, async () => {
      setUp(mode);
      const started = Date.now();
      published(await env.refresh(options({ timeoutMs: 300, budgetMs: 1500 })));
      expect(Date.now() - started).toBeLessThan(8000);
      const { url } = env.serve();
      expect(await securityOf(url, "acme/fs-server")).toMatchObject({
        scorecard: null,
        scorecard_status: "unknown",
        advisories: null,
        provenance: null,
        checked_at: null,
      });
      expect(await ids(`${url}/api/v1/plugins?advisories=none&pageSize=50`)).toEqual([]);
    });
  }

  test("the request budget bounds the batches; deps.dev off asks nothing and stores no security", async () => {
    setUp();
    const report = published(await env.refresh(options({ maxRequests: 1 })));
    expect(depsDev.asked).toHaveLength(1);
    expect(report.security).toMatchObject({ scorecardUnknown: report.security!.plugins });
    depsDev.asked.length = 0;
    env.stop();
    depsDev.stop();
    registries.stop();
    setUp();
    published(await env.refresh({}));
    expect(depsDev.asked).toHaveLength(0);
    const { url } = env.serve();
    expect(await securityOf(url, "acme/fs-server")).toBeNull();
  });
});

/** The registry pieces on their own: addresses read as repositories, the verifier's budget, cache and hostile answers. */
import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type PackageOptions, PackageVerifier } from "../../src/refresh/checks/packages/package-verifier";
import { githubRepo, mcpNameInText, mcpNameOwner } from "../../src/refresh/upstream/repo-links";
import { FakeRegistries } from "../fakes/registries";

describe("where registry metadata points", () => {
  test("the forms npm and PyPI use for a GitHub repository", () => {
    for (const form of [
      "git+https://github.com/acme/fs-server.git",
      "https://github.com/acme/fs-server",
      "git@github.com:acme/fs-server.git",
      "git://github.com/acme/fs-server.git",
      "github:acme/fs-server",
      "acme/fs-server",
      "https://github.com/acme/fs-server/tree/main/packages/x",
      "https://www.github.com/acme/fs-server#readme",
    ])
      expect({ form, repo: githubRepo(form) }).toEqual({ form, repo: "acme/fs-server" });
  });

  test("addresses that only look like GitHub name no repository", () => {
    for (const form of [
      "https://github.com.evil.example/acme/fs-server",
      "https://evil.example/github.com/acme/fs-server",
      "https://gitlab.com/acme/fs-server",
      "https://github.com/acme",
      "javascript:alert(1)//github.com/acme/x",
      "",
      null,
      { url: "https://github.com/acme/fs-server" },
    ])
      expect(githubRepo(form)).toBeNull();
  });

  test("MCP registry names prove a GitHub owner only in the io.github namespace", () => {
    expect(mcpNameOwner("io.github.acme/fs-server")).toBe("acme");
    expect(mcpNameOwner("com.example/fs-server")).toBeNull();
    expect(mcpNameInText("Intro\n\nmcp-name: io.github.acme/fs\n")).toBe("io.github.acme/fs");
    expect(mcpNameInText("no marks here")).toBeNull();
  });
});

let registries: FakeRegistries;
let dir: string;
afterEach(() => {
  registries?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function verifier(limits: Partial<PackageOptions["limits"]> = {}): PackageVerifier {
  const options: PackageOptions = {
    npm: registries.url,
    pypi: null,
    limits: { maxRequests: 100, timeoutMs: 1000, budgetMs: 5000, ...limits },
  };
  return new PackageVerifier(options, join(dir, "catalog.sqlite"));
}

function setUp(): void {
  registries = new FakeRegistries();
  dir = mkdtempSync(join(tmpdir(), "registries-"));
  registries.npm.set("@acme/fs", { latest: "1.0.0", versions: { "1.0.0": { repository: "acme/fs" } } });
}

describe("the verifier", () => {
  test("a version is asked once, then read from the cache beside the database, even by a new run", async () => {
    setUp();
    const first = verifier();
    const [a, b] = await Promise.all([
      first.lookup("npm", "@acme/fs", "1.0.0"),
      first.lookup("npm", "@acme/fs", "1.0.0"),
    ]);
    expect(a).toEqual(b);
    expect(a).toMatchObject({ kind: "found", evidence: { repositories: ["acme/fs"], provenance: null } });
    // The version document and the attestations: two requests for one version, asked once.
    expect(registries.asked).toEqual(["/@acme%2ffs/1.0.0", "/-/npm/v1/attestations/@acme%2ffs@1.0.0"]);
    first.save();
    registries.mode = "down";
    const second = verifier();
    expect(await second.lookup("npm", "@acme/fs", "1.0.0")).toEqual(a);
    expect(registries.asked).toHaveLength(2);
    second.save();
  });

  test("a cache file that does not match its schema is ignored", async () => {
    setUp();
    writeFileSync(
      join(dir, "catalog.sqlite-packages.json"),
      JSON.stringify({
        version: 2,
        versions: { "npm:@acme/fs@1.0.0": { evidence: { version: "1.0.0" } } },
        latest: {},
      }),
    );
    const v = verifier();
    expect(await v.lookup("npm", "@acme/fs", "1.0.0")).toMatchObject({ kind: "found" });
    expect(registries.asked.length).toBe(2);
    v.save();
  });

  test("a cache file whose evidence holds text a registry address cannot is ignored", async () => {
    setUp();
    const evidence = {
      version: "1.0.0",
      repositories: ["<b>x</b> y"],
      mcpOwner: null,
      provenance: null,
    };
    writeFileSync(
      join(dir, "catalog.sqlite-packages.json"),
      JSON.stringify({ version: 2, versions: { "npm:@acme/fs@1.0.0": { evidence, usedAt: Date.now() } }, latest: {} }),
    );
    const v = verifier();
    expect(await v.lookup("npm", "@acme/fs", "1.0.0")).toMatchObject({ evidence: { repositories: ["acme/fs"] } });
    v.save();
  });

  test("a version 1 cache, whose evidence lacks PyPI's provenance, is not read: the package is asked again", async () => {
    setUp();
    const evidence = { version: "1.0.0", repositories: ["acme/fs"], mcpOwner: null, provenance: null };
    writeFileSync(
      join(dir, "catalog.sqlite-packages.json"),
      JSON.stringify({ version: 1, versions: { "npm:@acme/fs@1.0.0": { evidence, usedAt: Date.now() } }, latest: {} }),
    );
    const v = verifier();
    expect(await v.lookup("npm", "@acme/fs", "1.0.0")).toMatchObject({ kind: "found" });
    expect(registries.asked).toHaveLength(2);
    v.save();
  });

  test("without dist-tag paths the packument names the latest version", async () => {
    setUp();
    registries.distTagPaths = false;
    registries.npm.get("@acme/fs")!.versions["1.1.0"] = { repository: "acme/fs", bin: "x.js" };
    registries.npm.get("@acme/fs")!.latest = "1.1.0";
    const v = verifier();
    expect(await v.latest("npm", "@acme/fs")).toMatchObject({ kind: "found", evidence: { version: "1.1.0" } });
    expect(registries.asked.slice(0, 2)).toEqual(["/@acme%2ffs/latest", "/@acme%2ffs"]);
    v.save();
  });

  test("provenance is optional: unreadable, the evidence stands without it and is asked again next run", async () => {
    setUp();
    registries.attestationsDown = true;
    const first = verifier();
    expect(await first.lookup("npm", "@acme/fs", "1.0.0")).toMatchObject({
      kind: "found",
      partial: true,
      evidence: { repositories: ["acme/fs"], provenance: null },
    });
    first.save();
    registries.attestationsDown = false;
    const second = verifier();
    const again = await second.lookup("npm", "@acme/fs", "1.0.0");
    expect(again).toEqual({ kind: "found", evidence: expect.objectContaining({ provenance: null }) });
    expect(registries.asked).toHaveLength(4);
    second.save();
  });

  test("past the request budget nothing is asked and the answer is unknown", async () => {
    setUp();
    const v = verifier({ maxRequests: 0 });
    expect(await v.lookup("npm", "@acme/fs", "1.0.0")).toEqual({ kind: "unknown", reason: "budget spent" });
    expect(registries.asked).toEqual([]);
    v.save();
  });

  test("a missing version is missing; an answer about another package is unknown and not cached", async () => {
    setUp();
    const v = verifier();
    expect(await v.lookup("npm", "@acme/fs", "9.9.9")).toEqual({ kind: "missing" });
    // A document about another package than the one asked for is not evidence about this one.
    registries.npm.set("@acme/x", { latest: "1.0.0", versions: { "1.0.0": { name: "other", repository: "acme/x" } } });
    expect(await v.lookup("npm", "@acme/x", "1.0.0")).toEqual({ kind: "unknown", reason: "malformed answer" });
    v.save();
    // Not cached: the next run asks again and takes a sound answer.
    registries.npm.get("@acme/x")!.versions["1.0.0"]!.name = "@acme/x";
    const next = verifier();
    expect(await next.lookup("npm", "@acme/x", "1.0.0")).toMatchObject({ kind: "found" });
    next.save();
  });
});

describe("PyPI's provenance (the Integrity API)", () => {
  function pypiVerifier(): PackageVerifier {
    return new PackageVerifier(
      { npm: null, pypi: registries.url, limits: { maxRequests: 100, timeoutMs: 1000, budgetMs: 5000 } },
      join(dir, "catalog.sqlite"),
    );
  }

  test("the Trusted Publisher of the version's first file is the provenance; none published is none", async () => {
    setUp();
    registries.pypi.set("py-tool", {
      latest: "1.2.0",
      versions: { "1.2.0": { provenance: "acme/py-tool", description: "mcp-name: io.github.acme/py-tool" } },
    });
    registries.pypi.set("plain", { latest: "1.0.0", versions: { "1.0.0": {} } });
    const v = pypiVerifier();
    expect(await v.latest("pypi", "Py_Tool")).toEqual({
      kind: "found",
      evidence: {
        version: "1.2.0",
        repositories: [],
        mcpOwner: "acme",
        mcpName: "io.github.acme/py-tool",
        provenance: "acme/py-tool",
      },
    });
    expect(registries.asked).toContain("/integrity/py-tool/1.2.0/py_tool-1.2.0-py3-none-any.whl/provenance");
    expect(await v.lookup("pypi", "plain", "1.0.0")).toMatchObject({ kind: "found", evidence: { provenance: null } });
    v.save();
  });

  test("an unreadable provenance leaves the evidence partial: used, not cached", async () => {
    setUp();
    registries.pypi.set("flaky", { latest: "1.0.0", versions: { "1.0.0": { provenance: "acme/flaky" } } });
    registries.integrityDown = true;
    const v = pypiVerifier();
    expect(await v.lookup("pypi", "flaky", "1.0.0")).toMatchObject({ partial: true, evidence: { provenance: null } });
    v.save();
    registries.integrityDown = false;
    expect(await pypiVerifier().lookup("pypi", "flaky", "1.0.0")).toMatchObject({
      evidence: { provenance: "acme/flaky" },
    });
  });
});

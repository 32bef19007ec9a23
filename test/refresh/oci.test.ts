/**
 * OCI image ownership from the image's own labels, read through the Docker Registry HTTP API v2
 * of a fake registry (a real HTTP server on 127.0.0.1): token, index, platform manifest, config
 * blob. Cached by reference, budgeted, and hostile answers leave it unknown.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Install } from "../../src/catalog/model/details";
import { imageRef } from "../../src/refresh/checks/packages/oci";
import { verdict } from "../../src/refresh/checks/packages/package-verdict";
import { type PackageOptions, PackageVerifier } from "../../src/refresh/checks/packages/package-verifier";
import { imageOf } from "../../src/refresh/checks/packages/packages-check";
import { FakeOciRegistry, type OciMode } from "../fakes/oci-registry";

const NAME = "io.modelcontextprotocol.server.name";
let registry: FakeOciRegistry;
let dir: string;
afterEach(() => {
  registry?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function setUp(mode: OciMode = "ok"): void {
  registry = new FakeOciRegistry();
  registry.mode = mode;
  dir = mkdtempSync(join(tmpdir(), "oci-"));
  registry.add("acme/weather", "1.2.0", { labels: { [NAME]: "io.github.acme/weather" }, index: true });
  registry.add("library/postgres", "16.4", { labels: {} });
  registry.add("other/tool", "2.0.0", {
    labels: { "org.opencontainers.image.source": "https://github.com/other/tool" },
  });
}

function verifier(limits: Partial<PackageOptions["limits"]> = {}, oci: string | null = registry.url) {
  const options: PackageOptions = {
    npm: null,
    pypi: null,
    oci,
    limits: { maxRequests: 100, timeoutMs: 500, budgetMs: 3000, ...limits },
  };
  return new PackageVerifier(options, join(dir, "catalog.sqlite"));
}

describe("image references as the registry API names them", () => {
  test("registry, repository path and tag or digest", () => {
    const digest = `sha256:${"a".repeat(64)}`;
    expect(imageRef("acme/weather:1.2.0")).toEqual({ host: "docker.io", repo: "acme/weather", reference: "1.2.0" });
    expect(imageRef("postgres:16.4")).toEqual({ host: "docker.io", repo: "library/postgres", reference: "16.4" });
    expect(imageRef("index.docker.io/acme/w:1")).toEqual({ host: "docker.io", repo: "acme/w", reference: "1" });
    expect(imageRef(`mcr.microsoft.com/a/b@${digest}`)).toEqual({
      host: "mcr.microsoft.com",
      repo: "a/b",
      reference: digest,
    });
    for (const bad of ["acme/weather", "/x:1", "acme/../x:1", "acme/Weather:1", "acme/w:bad tag"])
      expect(imageRef(bad)).toBeNull();
  });
});

test("the image a line runs is found past its -e options and before the server's own arguments", () => {
  const line = (fields: Partial<Install>): Install => ({
    harness: "mcp",
    kind: "oci",
    env: [],
    from: "server.json",
    ...fields,
  });
  const command = "claude mcp add w --env KEY=YOUR_KEY -- docker run -i --rm -e KEY acme/weather:1.2.0 --port 8080";
  expect(imageOf(line({ harness: "claude-code", command }))).toBe("acme/weather:1.2.0");
  const args = ["run", "-i", "--rm", "-e", "KEY", "acme/weather:1.2.0", "serve"];
  expect(imageOf(line({ config: { mcpServers: { w: { command: "docker", args } } } }))).toBe("acme/weather:1.2.0");
  expect(imageOf(line({ command: "claude mcp add w -- npx -y weather@1.0.0" }))).toBeNull();
});

describe("the labels of an image", () => {
  test("token, index to linux/amd64, config blob through a redirect; asked once, then cached", async () => {
    setUp();
    const first = verifier();
    const found = await first.image("docker.io/acme/weather:1.2.0");
    expect(found).toEqual({
      kind: "found",
      evidence: { version: "1.2.0", repositories: [], mcpOwner: "acme", provenance: null },
    });
    // The label sits on the amd64 image only: the index was followed to it, past the attestation and arm64.
    if (found.kind !== "found") throw new Error("not found");
    // A label is what the image's publisher wrote: it leaves the line unproven outside the owner's ghcr.io namespace.
    expect(verdict("OCI", found.evidence, "acme/weather")).toMatchObject({ verified: false, proof: "unproven" });
    // The look-alike listing the same image is told it is not its own.
    expect(verdict("OCI", found.evidence, "copycat/weather").verified).toBe(false);
    const paths = registry.asked.filter((p) => !p.endsWith("/token"));
    expect(paths[0]).toBe("GET /v2/acme/weather/manifests/1.2.0");
    expect(paths.some((p) => p.startsWith("GET /cdn/acme/weather@sha256:"))).toBe(true);
    // The anonymous try, the token, the index, the amd64 manifest, the blob and its redirect.
    expect(registry.asked).toHaveLength(6);
    first.save();
    const seen = registry.asked.length;
    registry.mode = "down";
    expect(await verifier().image("acme/weather:1.2.0")).toEqual(found);
    expect(registry.asked.length).toBe(seen);
  });

  test("the OCI source label names a repository; an image with no label names none", async () => {
    setUp();
    const v = verifier();
    const other = await v.image("other/tool:2.0.0");
    expect(other).toMatchObject({ kind: "found", evidence: { repositories: ["other/tool"], mcpOwner: null } });
    if (other.kind === "found")
      expect(verdict("OCI", other.evidence, "copycat/tool")).toEqual({
        verified: false,
        note: "OCI names another repository: other/tool",
      });
    const plain = await v.image("postgres:16.4");
    expect(plain).toMatchObject({ kind: "found", evidence: { repositories: [], mcpOwner: null } });
    expect(await v.image("acme/weather:9.9.9")).toEqual({ kind: "missing" });
    v.save();
  });

  for (const [mode, reason] of [
    ["down", "status 503"],
    ["429", "status 429"],
    ["hang", "no answer"],
    ["wrong-digest", "digest mismatch"],
    ["foreign-realm", "status 401"],
    ["foreign-redirect", "redirect not followed"],
  ] as const) {
    test(`a registry ${mode}: unknown (${reason}), not cached, nothing asked elsewhere`, async () => {
      setUp(mode);
      const v = verifier();
      expect(await v.image("acme/weather:1.2.0")).toEqual({ kind: "unknown", reason });
      v.save();
      registry.mode = "ok";
      expect(await verifier().image("acme/weather:1.2.0")).toMatchObject({ kind: "found" });
    });
  }

  test("off, or past the budget, nothing is asked", async () => {
    setUp();
    const off = verifier({}, null);
    expect(off.enabled("oci")).toBe(false);
    expect(await off.image("acme/weather:1.2.0")).toEqual({ kind: "unknown", reason: "registry off" });
    const spent = verifier({ maxRequests: 0 });
    expect(await spent.image("acme/weather:1.2.0")).toEqual({ kind: "unknown", reason: "budget spent" });
    expect(registry.asked).toEqual([]);
  });
});

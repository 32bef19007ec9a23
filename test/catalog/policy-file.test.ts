/**
 * The policy file: YAML or JSON, every key checked, every error naming the file and the line; a
 * bad file stops the server before it listens (and leaves no database behind).
 */
import { describe, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadPolicy, PolicyError, parsePolicy } from "../../src/catalog/model/policy-file";
import { publishSnapshot } from "../../src/catalog/snapshot/publish";
import { CATEGORY_IDS, plugin, snapshotInput, tempDir } from "../helpers";
import { childEnv, ensureStopped, ROOT, type Service, startService } from "../reliability/support/process";

const SHA = "0123456789abcdef0123456789abcdef01234567";

function error(text: string): string {
  try {
    parsePolicy(text, "org/policy.yml", CATEGORY_IDS);
  } catch (e) {
    expect(e).toBeInstanceOf(PolicyError);
    return (e as Error).message;
  }
  throw new Error("expected a PolicyError");
}

describe("reading a policy", () => {
  test("every key of the documented shape, in YAML and the same in JSON", () => {
    const yaml = `allow:
  - owner: acme
  - repo: obra/superpowers
    commit: ${SHA}
deny: [{ owner: someone }, { repo: someone/thing }]
require:
  licences: [MIT, Apache-2.0]
  verified_owner: true
  packages_verified: true
  scorecard_min: 5
  advisories: none
  risk_rules_absent: [pipe-to-shell]
  context_max: 5000
  archived: false
  harnesses: [claude-code, mcp]
categories: [mcp, skills]
`;
    const policy = parsePolicy(yaml, "p.yml", CATEGORY_IDS);
    expect(policy).toEqual({
      file: "p.yml",
      allow: [{ owner: "acme" }, { repo: "obra/superpowers", commit: SHA }],
      deny: [{ owner: "someone" }, { repo: "someone/thing" }],
      require: {
        licences: ["MIT", "Apache-2.0"],
        verified_owner: true,
        packages_verified: true,
        scorecard_min: 5,
        advisories: "none",
        risk_rules_absent: ["pipe-to-shell"],
        context_max: 5000,
        archived: false,
        harnesses: ["claude-code", "mcp"],
      },
      categories: ["mcp", "skills"],
    });
    const { file: _file, ...rest } = policy;
    expect(parsePolicy(JSON.stringify(rest), "p.json", CATEGORY_IDS)).toEqual({ ...rest, file: "p.json" });
  });

  test("an empty file is a policy that admits everything; a missing file is none", () => {
    expect(parsePolicy("# nothing yet\n", "p.yml")).toEqual({
      file: "p.yml",
      allow: null,
      deny: [],
      require: {},
      categories: null,
    });
    expect(loadPolicy("/nonexistent/policy.yml")).toBeNull();
  });

  test("unknown keys, wrong types, bad ids and bad commits are errors naming the file and line", () => {
    expect(error("allow:\n  - owner: acme\nrequire:\n  licenses: [MIT]\n")).toBe(
      'org/policy.yml:4:3: unknown key "licenses" in require (known: licences, verified_owner, packages_verified, scorecard_min, advisories, risk_rules_absent, context_max, archived, harnesses)',
    );
    expect(error("allow:\n  - repo: acme/tool\n    commit: 0123abc\n")).toBe(
      'org/policy.yml:3:13: commit (40 lowercase hex) "0123abc" is not valid',
    );
    expect(error("deny:\n  - repo: not a repo\n")).toBe('org/policy.yml:2:11: repo "not a repo" is not valid');
    expect(error("require:\n  scorecard_min: high\n")).toBe(
      "org/policy.yml:2:18: require.scorecard_min must be a number from 0 to 10",
    );
    expect(error("require:\n  archived: no\n")).toBe("org/policy.yml:2:13: require.archived must be true or false");
    expect(error("require:\n  risk_rules_absent: [pipe-to-shel]\n")).toStartWith(
      'org/policy.yml:2:23: an item of require.risk_rules_absent "pipe-to-shel" is not one of ',
    );
    expect(error("categories: [mcp, nope]\n")).toStartWith('org/policy.yml:1:19: an item of categories "nope"');
    expect(error("allow:\n  - owner: acme\n    repo: acme/x\n")).toBe(
      "org/policy.yml:2:5: an entry of allow names either an owner or a repo",
    );
    expect(error(`deny:\n  - repo: a/b\n    commit: ${SHA}\n`)).toStartWith(
      'org/policy.yml:3:5: unknown key "commit" in an entry of deny',
    );
    expect(error("allow: [\n")).toStartWith("org/policy.yml:2:1: ");
    expect(error("allow: []\nallow: []\n")).toStartWith("org/policy.yml:2:1: ");
    expect(error("- owner: acme\n")).toBe("org/policy.yml:1:1: the policy must be a mapping");
  });
});

describe("a bad policy stops the server", () => {
  test("it exits before listening, naming the file and the line, and builds no database", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const policy = join(dir, "policy.yml");
      writeFileSync(policy, "allow:\n  - owner: acme\n  - repository: acme/x\n");
      const path = join(dir, "catalog.sqlite");
      const proc = Bun.spawn([process.execPath, "run", "src/index.ts"], {
        cwd: ROOT,
        env: childEnv({ DATABASE_PATH: path }),
        stdout: "pipe",
        stderr: "pipe",
      });
      const code = await proc.exited;
      const stderr = await new Response(proc.stderr).text();
      expect(code).toBe(2);
      expect(stderr).toContain(`Invalid policy: ${policy}:3:5: unknown key "repository" in an entry of allow`);
      expect(await new Response(proc.stdout).text()).not.toContain("server.listening");
      expect(existsSync(path)).toBe(false);
    } finally {
      cleanup();
    }
  });
});

describe("a good policy at start", () => {
  test("the embedded default the server builds serves only what it admits, and names the rest's rule", async () => {
    const { dir, cleanup } = tempDir();
    let service: Service | undefined;
    try {
      writeFileSync(join(dir, "policy.yml"), "allow:\n  - owner: modelcontextprotocol # ours\n");
      service = await startService({ DATABASE_PATH: join(dir, "catalog.sqlite") });
      const list = (await (await fetch(`${service.url}/api/v1/plugins?limit=100`)).json()) as {
        data: { total: number; items: Array<{ id: string }> };
      };
      expect(list.data.total).toBeGreaterThan(0);
      expect(list.data.total).toBeLessThan(50);
      expect(list.data.items.every((p) => p.id.startsWith("modelcontextprotocol/"))).toBe(true);
      const listing = (await (await fetch(`${service.url}/api/v1/listing/anthropics/claude-code`)).json()) as {
        data: { reason: string; policy_rule: string };
      };
      expect([listing.data.reason, listing.data.policy_rule]).toEqual(["policy", "not in allow"]);
    } finally {
      await ensureStopped(service);
      cleanup();
    }
  });

  test("a snapshot built under no policy is held to it before the server listens, without a refresh", async () => {
    const { dir, cleanup } = tempDir();
    let service: Service | undefined;
    try {
      const path = join(dir, "catalog.sqlite");
      const records = ["acme/one", "acme/two", "other/three"].map((id) => plugin(id, { stars: 10 }));
      publishSnapshot(path, snapshotInput(records));
      writeFileSync(join(dir, "policy.yml"), "deny:\n  - repo: other/three\n");
      service = await startService({ DATABASE_PATH: path });
      const list = (await (await fetch(`${service.url}/api/v1/plugins`)).json()) as {
        data: { items: Array<{ id: string }> };
      };
      expect(list.data.items.map((p) => p.id).sort()).toEqual(["acme/one", "acme/two"]);
      expect(service.events.some((e) => e.event === "snapshot.policy_applied")).toBe(true);
      const listing = (await (await fetch(`${service.url}/api/v1/listing/other/three`)).json()) as {
        data: { policy_rule: string };
      };
      expect(listing.data.policy_rule).toBe("deny repo other/three");
    } finally {
      await ensureStopped(service);
      cleanup();
    }
  });
});

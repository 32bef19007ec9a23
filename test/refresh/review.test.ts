/**
 * `npm run review` over a snapshot a policy built: the plugins waiting (head past the approved
 * commit), those a rule keeps out, those newly seen under an allowed owner; `approve` writes the
 * policy file keeping its comments and order, and re-applies it to the served snapshot at once.
 */
import { Database } from "bun:sqlite";
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../reliability/support/process";
import { Env, published } from "./support";

let env: Env;
afterEach(() => env.stop());

const policyPath = () => join(env.dir, "policy.yml");

async function review(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const proc = Bun.spawn([process.execPath, "run", "jobs/review.ts", ...args], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      DATABASE_PATH: env.databasePath,
      POLICY_FILE: policyPath(),
      REFRESH_DATA_DIR: env.dataDir,
    },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  return { code: await proc.exited, out, err };
}

function servedCommit(id: string): string | null {
  const db = new Database(env.databasePath, { readonly: true });
  try {
    const row = db.query<{ c: string }, [string]>("SELECT x_contents AS c FROM plugins WHERE id = ?").get(id);
    return row ? ((JSON.parse(`{${row.c}}`) as { contents: { commit?: string } }).contents.commit ?? null) : null;
  } finally {
    db.close();
  }
}

const files = (text: string) => ({ ".claude-plugin/plugin.json": '{"name":"pinned"}', "commands/hello.md": text });

describe("npm run review", () => {
  test("lists what waits, and approve moves the plugin to its new commit without a refresh", async () => {
    env = new Env({ repositories: ["acme/pinned", "acme/fresh", "evil/thing"] });
    env.github.add(
      { full_name: "acme/pinned", stars: 10, files: files("---\ndescription: Hello\n---\nHi") },
      { full_name: "evil/thing", stars: 10, files: files("---\ndescription: Evil\n---\nHi") },
    );
    published(await env.refresh({ policyPath: policyPath() }));
    const approved = servedCommit("acme/pinned")!;
    writeFileSync(
      policyPath(),
      `# our catalog\nallow:\n  - owner: acme # everything of ours\n  - repo: acme/pinned\n    commit: ${approved} # reviewed\n  - repo: evil/thing\ndeny:\n  - owner: evil\n`,
    );
    env.github.repos.update("acme/pinned", { files: files("---\ndescription: Hello again\n---\nHi") });
    env.github.add({ full_name: "acme/fresh", stars: 3, files: files("---\ndescription: New\n---\nHi") });
    published(await env.refresh({ policyPath: policyPath() }));
    expect(servedCommit("acme/pinned")).toBe(approved);
    const head = (
      JSON.parse(
        new Database(env.databasePath, { readonly: true })
          .query<{ newer: string }, []>("SELECT newer FROM policy_records WHERE id = 'acme/pinned'")
          .get()!.newer,
      ) as { details: { contents: { commit: string } } }
    ).details.contents.commit;

    const listed = await review();
    expect(listed.code).toBe(0);
    expect(listed.out.split("\n").filter(Boolean)).toEqual([
      `waiting   acme/pinned  ${approved} → ${head}`,
      // What the newer reading adds: its command's description is a word longer.
      "  Context cost: 5 → 6 tokens (+1)",
      "  Same version: the content changed while the declared version (none) did not move",
      "kept out  evil/thing  deny owner evil",
      `new       acme/fresh  at ${servedCommit("acme/fresh")} (its owner is allowed)`,
      `3 to review (policy ${policyPath()})`,
    ]);

    const approving = await review("approve", `acme/pinned@${head}`);
    expect(approving.err).toBe("");
    expect(approving.code).toBe(0);
    expect(readFileSync(policyPath(), "utf8")).toBe(
      `# our catalog\nallow:\n  - owner: acme # everything of ours\n  - repo: acme/pinned\n    commit: ${head} # reviewed\n  - repo: evil/thing\ndeny:\n  - owner: evil\n`,
    );
    expect(servedCommit("acme/pinned")).toBe(head);
    expect(servedCommit("evil/thing")).toBeNull();
    expect((await review()).out).not.toContain("waiting");
  });

  test("a bad approval is refused with the usage, the policy file untouched", async () => {
    env = new Env();
    writeFileSync(policyPath(), "allow:\n  - owner: acme\n");
    const run = await review("approve", "acme/pinned@0123abc");
    expect(run.code).toBe(2);
    expect(run.err).toContain("Usage: npm run review");
    expect(readFileSync(policyPath(), "utf8")).toBe("allow:\n  - owner: acme\n");
  });
});

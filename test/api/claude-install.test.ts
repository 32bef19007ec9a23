/**
 * The catalog's entry installs exactly what the author's entry installs, judged by the real Claude
 * Code CLI end to end, offline. A repository shaped like anthropics/skills (a root marketplace
 * whose `strict: false` entries over `./` each scope the root to their own `skills` list, beside
 * plugin folders, one of them whose entry adds a version and a server file) is served by the fake
 * platform to a real refresh and by the local git host (test/fakes/git-http.ts) to the client. In
 * one throw-away HOME the client adds the author's marketplace (cloned from the git host) and the
 * catalog's (the real app on 127.0.0.1), installs every entry from both, and `claude plugin
 * details` must show the same plugin from each: name and version, skills (commands among them),
 * agents, hooks, MCP servers. The same entries as a record read before the catalog kept entries'
 * fields serve as they did, and show what that cost: every skill of the repository in each.
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { claude, validateErrors } from "../claude-cli";
import { startGitHost } from "../fakes/git-http";
import { marketplacePlugin, snapshotInput, startServer } from "../helpers";
import { Env, published } from "../refresh/support";

const root = mkdtempSync(join(tmpdir(), "claude-install-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const skill = (name: string) => `---\nname: ${name}\ndescription: The ${name} skill.\n---\nDo ${name}.\n`;
const hooks = JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: "command", command: "echo hello" }] }] } });
const servers = JSON.stringify({ mcpServers: { ledger: { command: "node", args: ["server.js"] } } });

const MARKETPLACE = {
  name: "acme-agent-skills",
  owner: { name: "Acme" },
  metadata: { description: "Acme's skills", version: "1.0.0" },
  plugins: [
    {
      name: "document-skills",
      description: "Spreadsheets, documents and PDFs",
      source: "./",
      strict: false,
      skills: ["./skills/xlsx", "./skills/docx", "./skills/pdf"],
    },
    {
      name: "example-skills",
      description: "Examples of what skills do",
      source: "./",
      strict: false,
      skills: ["./skills/art-maker", "./skills/brand/"],
    },
    { name: "review-kit", description: "Reviews a change", source: "./plugins/review-kit" },
    {
      name: "ledger-tools",
      description: "Books and balances",
      source: "./plugins/ledger-tools",
      strict: false,
      version: "0.3.0",
      mcpServers: "./config/servers.json",
    },
  ],
};

/** The repository: the marketplace, skills of which each list takes some (`scratch` none), two plugin folders. */
const FILES: Record<string, string> = {
  ".claude-plugin/marketplace.json": JSON.stringify(MARKETPLACE, null, 2),
  "README.md": "# Acme skills\n",
  ...Object.fromEntries(
    ["xlsx", "docx", "pdf", "art-maker", "brand", "scratch"].map((n) => [`skills/${n}/SKILL.md`, skill(n)]),
  ),
  "plugins/review-kit/.claude-plugin/plugin.json": JSON.stringify({ name: "review-kit", version: "2.1.0" }),
  "plugins/review-kit/commands/review.md": "---\ndescription: Review the change\n---\nReview it.\n",
  "plugins/review-kit/agents/critic.md": "---\nname: critic\ndescription: A strict critic.\n---\nCriticize.\n",
  "plugins/review-kit/hooks/hooks.json": hooks,
  "plugins/review-kit/skills/tidy/SKILL.md": skill("tidy"),
  "plugins/ledger-tools/config/servers.json": servers,
  "plugins/ledger-tools/skills/balance/SKILL.md": skill("balance"),
};
const NAMES = MARKETPLACE.plugins.map((p) => p.name);

/** What `claude plugin details` shows of a plugin: its heading (name and version) and its inventory's lines. */
function inventory(out: string): { heading: string; lines: Record<string, string> } {
  const heading = out.split("\n")[0]!.trim();
  const lines: Record<string, string> = {};
  for (const kind of ["Skills", "Agents", "Hooks", "MCP servers"]) {
    const line = new RegExp(`^  ${kind} \\((\\d+)\\)(?:  ([^(\\n]*))?`, "m").exec(out);
    const names = (line?.[2] ?? "").trim().split(", ").filter(Boolean).sort();
    lines[kind] = line ? `${line[1]}: ${names.join(", ")}` : "missing";
  }
  return { heading, lines };
}

/** A HOME whose git sends `https://github.com/…` to the git host, and the client run in it. */
function client(gitConfig: string) {
  const home = mkdtempSync(join(root, "home-"));
  writeFileSync(join(home, ".gitconfig"), gitConfig);
  return (args: string[]) => claude(root, args, home);
}

/** Adds marketplace `source`, installs each `name@marketplace` and answers what details shows of each. */
async function installed(run: ReturnType<typeof client>, source: string, marketplace: string) {
  const added = await run(["plugin", "marketplace", "add", source]);
  expect({ source, code: added.code, out: added.out }).toMatchObject({ source, code: 0 });
  const shown: Record<string, ReturnType<typeof inventory>> = {};
  for (const name of NAMES) {
    const id = `${name}@${marketplace}`;
    const install = await run(["plugin", "install", id]);
    expect({ id, code: install.code, out: install.out }).toEqual({
      id,
      code: 0,
      out: expect.stringContaining(`Successfully installed plugin: ${id}`),
    });
    const details = await run(["plugin", "details", id]);
    expect({ id, code: details.code }).toEqual({ id, code: 0 });
    shown[name] = inventory(details.out);
  }
  return shown;
}

/** What details shows of each entry served from a record of the repository read before entries' fields were kept. */
async function legacy(head: string, gitConfig: string) {
  const entries = MARKETPLACE.plugins.map((p): [string, string] => [p.name, p.source]);
  const server = startServer(snapshotInput([marketplacePlugin("acme/skills", entries, {}, head)]));
  try {
    return await installed(client(gitConfig), `${server.url}/market/claude/marketplace.json`, "plugin-catalog");
  } finally {
    await server.stop();
  }
}

let env: Env | undefined;
afterEach(async () => {
  await env?.stop();
  env = undefined;
});

describe("installed from the catalog as from the author's marketplace", () => {
  test(
    "every entry of an anthropics/skills-shaped repository: the same skills, agents, hooks and MCP servers",
    async () => {
      const host = startGitHost();
      const head = host.repository("acme/skills", FILES);
      const run = new Env({ searches: [{ query: "topic:claude-code-plugin" }] });
      env = run;
      run.onStop(() => host.stop());
      run.github.add({ full_name: "acme/skills", topics: ["claude-code-plugin"], files: FILES, head });
      published(await run.refresh());
      const server = run.serve();
      const url = `${server.url}/market/claude/marketplace.json`;
      const served = await (await fetch(url)).text();
      const file = join(root, "served.json");
      writeFileSync(file, served);
      const validated = await claude(root, ["plugin", "validate", file]);
      expect({ code: validated.code, errors: validateErrors(validated.out) }).toEqual({ code: 0, errors: [] });
      const at = (path: string) => ({
        source: "git-subdir",
        url: "https://github.com/acme/skills.git",
        path,
        sha: head,
      });
      const entries = (JSON.parse(served) as { plugins: Array<Record<string, unknown>> }).plugins;
      const carried = ["name", "source", "version", "strict", "skills", "commands", "agents", "hooks", "mcpServers"];
      expect(entries.map((e) => Object.fromEntries(carried.map((k) => [k, e[k]])))).toEqual([
        // Served from the skills folder: from the repository's address the client would load all of skills/.
        { name: "document-skills", source: at("skills"), strict: false, skills: ["./xlsx", "./docx", "./pdf"] },
        { name: "example-skills", source: at("skills"), strict: false, skills: ["./art-maker", "./brand/"] },
        { name: "review-kit", source: at("plugins/review-kit") },
        {
          name: "ledger-tools",
          source: at("plugins/ledger-tools"),
          version: "0.3.0",
          strict: false,
          mcpServers: "./config/servers.json",
        },
      ]);

      const both = client(host.gitConfig);
      const author = await installed(both, "https://github.com/acme/skills.git", MARKETPLACE.name);
      const catalog = await installed(both, url, "plugin-catalog");
      expect(catalog).toEqual(author);
      // Not vacuous: each scoped entry holds its own skills, and the folder plugins their components.
      expect(author[NAMES[0]!]!.lines.Skills).toBe("3: docx, pdf, xlsx");
      expect(author[NAMES[1]!]!.lines.Skills).toBe("2: art-maker, brand");
      expect(author[NAMES[2]!]).toEqual({
        heading: "review-kit 2.1.0",
        lines: { Skills: "2: review, tidy", Agents: "1: critic", Hooks: "1: SessionStart", "MCP servers": "0: " },
      });
      expect(author[NAMES[3]!]!.heading).toBe("ledger-tools 0.3.0");
      expect(author[NAMES[3]!]!.lines["MCP servers"]).toBe("1: ledger");

      // The same entries as a record read before the catalog kept their fields: served as before, and wrong.
      const before = await legacy(head, host.gitConfig);
      const every = "6: art-maker, brand, docx, pdf, scratch, xlsx";
      expect([before[NAMES[0]!]!.lines.Skills, before[NAMES[1]!]!.lines.Skills]).toEqual([every, every]);
      expect(before[NAMES[3]!]).toEqual({
        ...author[NAMES[3]!]!,
        heading: "ledger-tools",
        lines: {
          ...author[NAMES[3]!]!.lines,
          "MCP servers": "0: ",
        },
      });
    },
    { timeout: 240_000 },
  );
});

/** Plugin records with the fields a richer snapshot carries beyond the full form (install, contents, flags). */
import { Database } from "bun:sqlite";

/** Fields a plugin record may carry beyond the full form: install instructions, contents, flags. */
export const INSTALL = [
  {
    harness: "claude-code",
    kind: "plugin",
    command: "/plugin install toolkit@acme",
    env: [{ name: "ACME_TOKEN", secret: true, required: true }],
    from: "https://github.com/acme/toolkit/blob/main/.claude-plugin/plugin.json",
  },
  {
    harness: "mcp",
    kind: "npm",
    config: { mcpServers: { toolkit: { command: "npx", args: ["-y", "@acme/toolkit@1.2.0"] } } },
    env: [],
    from: "server.json",
  },
];

/** The parts a snapshot that stores them keeps in columns of their own, as JSON members. */
const PART_COLUMNS: Record<string, string[]> = {
  x_contents: ["contents"],
  x_install: ["install"],
  x_works_with: ["works_with"],
  x_risk: ["risk"],
  x_security: ["security"],
  x_tools: ["remote", "tools"],
  x_context: ["context"],
  x_flags: ["fork_of", "deprecated", "lookalike_of", "latest_release"],
};

/**
 * Gives a published plugin's record extra fields, as a snapshot with richer records holds them:
 * in the part columns where the snapshot has them, else in its full-form JSON.
 */
export function addRecordFields(path: string, id: string, fields: Record<string, unknown>): void {
  const db = new Database(path);
  try {
    const columns = new Set(
      db
        .query<{ name: string }, []>("PRAGMA table_info(plugins)")
        .all()
        .map((c) => c.name),
    );
    const rest = { ...fields };
    for (const [column, members] of Object.entries(PART_COLUMNS)) {
      if (!columns.has(column) || !members.some((m) => m in fields)) continue;
      const fragment = members.map((m) => `${JSON.stringify(m)}:${JSON.stringify(fields[m] ?? null)}`).join(",");
      db.query(`UPDATE plugins SET ${column} = ? WHERE id = ?`).run(fragment, id);
      for (const m of members) delete rest[m];
    }
    if (Object.keys(rest).length === 0) return;
    const row = db.query<{ full_json: string }, [string]>("SELECT full_json FROM plugins WHERE id = ?").get(id)!;
    const json = JSON.stringify({ ...JSON.parse(row.full_json), ...rest });
    db.query("UPDATE plugins SET full_json = ? WHERE id = ?").run(json, id);
  } finally {
    db.close();
  }
}

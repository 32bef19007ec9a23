/** Plugin records with the fields a richer snapshot carries beyond the full form (install, contents, flags). */
import { Database } from "bun:sqlite";

/** Fields a plugin record may carry beyond the full form: install instructions, contents, flags. */
export const INSTALL = [
  {
    harness: "claude-code",
    kind: "plugin",
    command: "claude plugin install acme/toolkit",
    env: [{ name: "ACME_TOKEN", secret: true, required: true }],
    from: "https://github.com/acme/toolkit/blob/main/.claude-plugin/plugin.json",
  },
  {
    harness: "mcp",
    kind: "npm",
    config: { mcpServers: { toolkit: { command: "npx", args: ["-y", "@acme/toolkit"] } } },
    env: [],
    from: "server.json",
  },
];

/** Gives a published plugin's record extra fields, as a snapshot with richer records holds them. */
export function addRecordFields(path: string, id: string, fields: Record<string, unknown>): void {
  const db = new Database(path);
  try {
    const row = db.query<{ full_json: string }, [string]>("SELECT full_json FROM plugins WHERE id = ?").get(id)!;
    const json = JSON.stringify({ ...JSON.parse(row.full_json), ...fields });
    db.query("UPDATE plugins SET full_json = ? WHERE id = ?").run(json, id);
  } finally {
    db.close();
  }
}

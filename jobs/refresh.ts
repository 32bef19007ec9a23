/**
 * `bun run refresh`: refreshes the catalog from the hosting platform by hand. Safe while the server
 * runs: the server opens the new snapshot on its next request and serves it once prepared, and a
 * run never overlaps another.
 *
 * Usage: `bun run jobs/refresh.ts [--data DIR]` (DIR holds discovery.json and the editors' data;
 * REFRESH_DATA_DIR, else db/, by default)
 *
 * Exit codes: 0 published · 1 failed · 2 bad configuration, policy file or arguments · 3 refused by validation
 * · 4 another refresh is running · 5 API budget exhausted (progress kept: run again after the reset).
 * In every case but 0 the published snapshot is left exactly as it was.
 */
import { parseArgs } from "node:util";
import { Secrets } from "../src/base/log";
import { PolicyError } from "../src/catalog/model/policy-file";
import { type Config, ConfigError, loadConfig } from "../src/config";
import { exitCode, formatResult } from "../src/refresh/report";
import { printable } from "../src/refresh/upstream/gate";
import { refreshOptionsFrom } from "../src/scheduler/options";
import { refreshAndShare } from "../src/scheduler/refresh-task";
import { sharedSettings } from "../src/scheduler/shared-settings";

/** The token, replaced wherever an upstream error put it. */
const secrets = new Secrets();

/** `text` with the token replaced, wherever an upstream error put it, and no control character from the data. */
function hidden(text: string): string {
  return secrets.redact(text).split("\n").map(printable).join("\n");
}

function print(line: string): void {
  console.log(hidden(line));
}

/** Log events as short lines for a person: `· repository_gone id=a/b reason=NOT_FOUND`. */
function log(event: string, fields: Record<string, unknown>): void {
  const detail = Object.entries(fields)
    .map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`)
    .join(" ");
  print(`· ${event.replace(/^refresh\./, "")} ${detail}`);
}

function options(): { data: string | undefined } {
  try {
    const { values } = parseArgs({ options: { data: { type: "string" } }, allowPositionals: false });
    return { data: values.data };
  } catch (error) {
    console.error(`Usage: bun run jobs/refresh.ts [--data DIR]\n${(error as Error).message}`);
    process.exit(2);
  }
}

async function main(): Promise<number> {
  const args = options();
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`Invalid configuration: ${error.message}`);
    return 2;
  }
  secrets.add(config.githubToken);
  secrets.add(config.redisUrl);
  secrets.add(config.redisSnapshotKey);
  // With REDIS_URL the run takes the instances' shared lock and shares what it publishes.
  const data = args.data === undefined ? {} : { dataDir: args.data };
  const settings = refreshOptionsFrom(config, undefined, { ...data, write: print });
  const result = await refreshAndShare(settings, sharedSettings(config), log);
  for (const line of formatResult(result)) print(line);
  return exitCode(result);
}

try {
  process.exit(await main());
} catch (error) {
  if (error instanceof PolicyError) {
    console.error(`Invalid policy: ${hidden(error.message)}`);
    process.exit(2);
  }
  console.error(hidden(`refresh failed, snapshot left as it was: ${(error as Error).stack ?? String(error)}`));
  process.exit(1);
}

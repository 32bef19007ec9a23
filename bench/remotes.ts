/**
 * The remote MCP server step against fakes on 127.0.0.1 (test/fakes/mcp-remotes.ts): how long
 * `count` answering servers take at a few concurrency limits, and the same with one in four hanging
 * until its time limit. Run: `bun run bench:remotes [count]`.
 */
import { noDetails } from "../src/catalog/model/details";
import type { RepoFacts } from "../src/catalog/model/types";
import { checkRemotes } from "../src/refresh/checks/remotes/remotes-check";
import type { Outcome } from "../src/refresh/fetch/outcome";
import { HOSTS, remoteUrl, startFakeRemotes } from "../test/fakes/mcp-remotes";

const count = Number(process.argv[2] ?? 200);
const fakes = startFakeRemotes();

function outcomes(hanging: number): Array<[string, Outcome]> {
  return Array.from({ length: count }, (_, i) => {
    const host = i % 4 === 0 && i / 4 < hanging ? HOSTS.hang : `mcp-${i}.answering-fixture.net`;
    const url = host === HOSTS.hang ? `${remoteUrl(host)}?${i}` : remoteUrl(host);
    const config = { mcpServers: { s: { type: "http", url } } };
    const details = {
      ...noDetails(),
      install: [{ harness: "mcp" as const, kind: "remote" as const, config, env: [], from: "server.json" }],
    };
    const facts = { full_name: `bench/s${i}` } as RepoFacts;
    return [`bench/s${i}`, { kind: "fetched", facts, etag: null, details }];
  });
}

async function run(concurrency: number, hanging: number, timeoutMs: number): Promise<void> {
  const limits = { budgetMs: 60_000, timeoutMs, concurrency, reuseHours: 0 };
  const started = performance.now();
  const counts = await checkRemotes(
    outcomes(hanging),
    () => undefined,
    { limits, allowance: fakes.allowance },
    () => new Date(),
  );
  const ms = performance.now() - started;
  console.log(
    `${count} remotes, ${hanging} hanging (${timeoutMs} ms limit), concurrency ${concurrency}: ${ms.toFixed(0)} ms, ` +
      `${(ms / count).toFixed(1)} ms per remote; answering ${counts.answering}, down ${counts.down}`,
  );
}

try {
  for (const concurrency of [1, 8, 32]) await run(concurrency, 0, 5000);
  await run(8, Math.floor(count / 4), 500);
} finally {
  fakes.stop();
}

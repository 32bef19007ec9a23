/**
 * The scheduled refresh's work runs in a child process, never on the server's thread: the real
 * service, the fake platform serving repositories whose SKILL.md front matter is costly to parse,
 * and /healthz probed again and again while the scheduled run parses them. How long /healthz waits
 * meanwhile is measured by `npm run bench:refresh-probe`; here the structure is asserted.
 */
import { afterEach, expect, test } from "bun:test";
import { deepSkillSeeds } from "../fakes/hostile-repos";
import { eventually } from "../helpers";
import { Env } from "../refresh/support";
import { ensureStopped, type Service, startService } from "./support/process";

let env: Env | undefined;
let service: Service | undefined;
afterEach(async () => {
  await ensureStopped(service);
  await env?.stop();
});

/** A cron pattern that fires once, `seconds` from now (UTC). */
function onceIn(seconds: number): string {
  const at = new Date(Date.now() + seconds * 1000);
  return `${at.getUTCSeconds()} ${at.getUTCMinutes()} ${at.getUTCHours()} * * *`;
}

test("a scheduled refresh parsing 40 hostile SKILL.md files runs in another process while /healthz answers", async () => {
  env = new Env({ searches: [{ query: "topic:agent-skills" }] });
  for (const seed of deepSkillSeeds(40, "agent-skills")) env.github.add(seed);
  env.publish([]);
  service = await startService({
    DATABASE_PATH: env.databasePath,
    GITHUB_API_URL: env.github.url,
    GITHUB_TOKEN: "test-token",
    REFRESH_DATA_DIR: env.dataDir,
    REFRESH_MAX_GROWTH: "1000",
    REFRESH_CRON: onceIn(3),
    TZ: "UTC",
  });
  const s = service;
  const probes: number[] = [];
  // The server's own line of the result, after the child's lines.
  const result = () => s.events.find((e) => e.event === "refresh.published" && e.summary);
  await s.waitFor("refresh.process", 10_000);
  // Each look for the result probes /healthz first, until the run's result is logged.
  await eventually(
    async () => {
      probes.push((await fetch(`${s.url}/healthz`)).status);
      return result() !== undefined;
    },
    50_000,
    "the server's refresh.published line",
  );
  expect(result()).toBeDefined();
  const child = Number(s.events.find((e) => e.event === "refresh.process")!.pid);
  expect(child).toBeGreaterThan(0);
  expect(child).not.toBe(s.proc.pid);
  // The run's own events came from the child, and its result names it.
  expect(result()!.pid).toBe(child);
  expect(s.events.some((e) => e.event === "refresh.started")).toBe(true);
  expect(probes.length).toBeGreaterThan(0);
  expect(probes.every((status) => status === 200)).toBe(true);
  const summary = (result()!.summary as string[]).join("\n");
  expect(summary).toContain("added 40");
}, 60_000);

import { afterEach, describe, expect, test } from "bun:test";
import type { Cron } from "croner";
import { createApp } from "../../src/app";
import { CatalogStore } from "../../src/catalog/snapshot/store";
import { refreshCron } from "../../src/scheduler/cron";
import { testConfig } from "../helpers";
import { within } from "./cli";
import { Env, OLD_SNAPSHOT_AT } from "./support";

let env: Env;
afterEach(() => env.stop());

const PATTERN = "0 */6 * * *";

/** The real app with the refresh scheduled but paused, over a store that only looks for a new file every minute. */
function serveWithCron(pattern: string | null) {
  const events: Array<[string, Record<string, unknown>]> = [];
  const log = (event: string, fields: Record<string, unknown>) => events.push([event, fields]);
  const store = new CatalogStore(env.databasePath, { checkIntervalMs: 60_000 });
  const config = testConfig({
    refreshCron: pattern,
    databasePath: env.databasePath,
    githubToken: "test-token",
    githubApiUrl: env.github.url,
    refreshMaxDrop: 0.1,
  });
  const app = createApp({ store, config: testConfig() })
    .use(refreshCron({ config, store, log, paused: true, options: env.options() }))
    .listen({ port: 0, hostname: "127.0.0.1" });
  const job = (app.store as { cron?: Record<string, Cron> }).cron?.refresh;
  env.onStop(async () => {
    job?.stop();
    await app.stop(true);
    store.close();
  });
  const generatedAt = async () =>
    ((await (await fetch(`http://127.0.0.1:${app.server!.port}/api/v1/plugins`)).json()) as any).data.generatedAt;
  return { job, events, generatedAt };
}

describe("the scheduled refresh", () => {
  test("is scheduled on REFRESH_CRON, and a tick publishes a snapshot the server serves on its next request", async () => {
    env = new Env();
    env.github.add({ full_name: "acme/one", stars: 3 });
    env.publishFake();
    const { job, generatedAt, events } = serveWithCron(PATTERN);
    expect(job).toBeDefined();
    expect(job!.getPattern()).toBe(PATTERN);
    expect(job!.isRunning()).toBe(false);
    expect(job!.nextRun()!.getUTCHours() % 6).toBe(0);
    expect(await generatedAt()).toBe(OLD_SNAPSHOT_AT);

    await within(job!.trigger(), 10_000, "the triggered refresh");

    expect(await generatedAt()).not.toBe(OLD_SNAPSHOT_AT);
    // The work ran in a child process, not in the server's.
    const child = events.find(([e]) => e === "refresh.process")?.[1].pid;
    expect(typeof child).toBe("number");
    expect(child).not.toBe(process.pid);
    expect(events.filter(([e, f]) => e === "refresh.published" && f.summary)[0]?.[1].pid).toBe(child);
  });

  test("skips a tick while a refresh runs, scheduled or by hand", async () => {
    env = new Env();
    env.github.add({ full_name: "acme/one" });
    env.publishFake();
    const { job, events } = serveWithCron(PATTERN);
    const gate = env.github.hold("graphql");
    const first = job!.trigger();
    await within(gate.arrived, 10_000, "the scheduled refresh to start fetching");
    await job!.trigger();
    expect(events.map(([e]) => e)).toContain("refresh.skipped");
    gate.release();
    await within(first, 10_000, "the scheduled refresh");
    expect(events.map(([e]) => e)).toContain("refresh.published");

    const again = env.github.hold("graphql");
    const byHand = env.refresh();
    await within(again.arrived, 10_000, "the refresh by hand to start fetching");
    await job!.trigger();
    expect(events.map(([e]) => e)).toContain("refresh.locked");
    again.release();
    expect((await byHand).status).toBe("published");
  });

  test("is not scheduled when REFRESH_CRON is off", () => {
    env = new Env();
    env.publish([]);
    const { job } = serveWithCron(null);
    expect(job).toBeUndefined();
  });
});

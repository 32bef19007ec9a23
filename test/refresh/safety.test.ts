import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { spawnRefresh, within } from "./cli";
import { Env, published } from "./support";

let env: Env;
afterEach(() => env.stop());

function seedKnown(count: number): void {
  for (let i = 0; i < count; i++)
    env.github.add({ full_name: `org/repo-${i}`, stars: 100 + i, description: `Repo ${i}` });
  env.publishFake();
}

async function deadPid(): Promise<number> {
  const proc = Bun.spawn(["true"]);
  await proc.exited;
  return proc.pid;
}

describe("a refused refresh", () => {
  test("when the plugin count falls by more than the allowed share leaves the snapshot byte for byte", async () => {
    env = new Env();
    seedKnown(20);
    for (let i = 0; i < 3; i++) env.github.repos.remove(`org/repo-${i}`);
    const before = env.bytes();
    const result = await env.refresh({ maxDrop: 0.1 });
    expect(result).toMatchObject({
      status: "refused",
      reason: "plugin count would fall from 20 to 17 (15.0%, more than the allowed 10.0%)",
    });
    expect(env.bytes().equals(before)).toBe(true);
    // The same drop passes when the operator allows it.
    published(await env.refresh({ maxDrop: 0.2 }));
  });

  test("when a required field is missing from every repository leaves the snapshot byte for byte", async () => {
    env = new Env();
    seedKnown(20);
    env.github.omitFields.add("stargazerCount");
    const before = env.bytes();
    const result = await env.refresh();
    expect(result).toMatchObject({ status: "refused", reason: "stars is missing from every one of 20 repositories" });
    expect(env.bytes().equals(before)).toBe(true);
  });

  test("by hand says why and exits with code 3", async () => {
    env = new Env();
    seedKnown(10);
    for (let i = 0; i < 5; i++) env.github.repos.remove(`org/repo-${i}`);
    const before = env.bytes();
    const run = await within(spawnRefresh(env).done(), 20_000, "the refresh");
    expect(run.code).toBe(3);
    expect(run.stdout).toContain("refresh refused, snapshot left as it was: plugin count would fall from 10 to 5");
    expect(env.bytes().equals(before)).toBe(true);
  });
});

describe("a refresh killed mid-way", () => {
  test("leaves the snapshot byte for byte, and the next run takes over its stale lock and resumes", async () => {
    env = new Env();
    seedKnown(30);
    const before = env.bytes();
    const gate = env.github.hold("graphql");
    const child = spawnRefresh(env);
    await within(gate.arrived, 20_000, "the refresh to start fetching");
    child.proc.kill("SIGKILL");
    const run = await within(child.done(), 20_000, "the killed refresh to end");
    gate.release();
    expect(run.signal).toBe("SIGKILL");
    expect(env.bytes().equals(before)).toBe(true);
    expect(existsSync(`${env.databasePath}.lock`)).toBe(true);

    const report = published(await env.refresh());
    expect(report.resumed).toBe(true);
    expect(report.total).toBe(30);
    expect(existsSync(`${env.databasePath}.lock`)).toBe(false);
  });

  test("leaves temporary files that the next run removes", async () => {
    env = new Env();
    seedKnown(2);
    const leftover = `${env.databasePath}.tmp-${await deadPid()}-abc123`;
    writeFileSync(leftover, "half a snapshot");
    published(await env.refresh());
    expect(existsSync(leftover)).toBe(false);
  });
});

describe("two refreshes at once", () => {
  test("the second is refused while the first runs, in the same process or another, and the first still publishes", async () => {
    env = new Env();
    seedKnown(3);
    const gate = env.github.hold("graphql");
    const first = env.refresh();
    await within(gate.arrived, 10_000, "the first refresh to start fetching");
    const second = await env.refresh();
    expect(second.status).toBe("locked");
    const byHand = await within(spawnRefresh(env).done(), 20_000, "the refresh by hand");
    expect(byHand.code).toBe(4);
    expect(byHand.stdout).toContain(`refresh skipped: another refresh is running (pid ${process.pid}`);
    gate.release();
    published(await first);
  });

  test("a lock left by a process that no longer runs is stale and taken over", async () => {
    env = new Env();
    seedKnown(2);
    writeFileSync(`${env.databasePath}.lock`, `${await deadPid()}\n2026-01-01T00:00:00.000Z\n`);
    published(await env.refresh());
  });
});

describe("bun run refresh against the fake", () => {
  test("refreshes the catalog end to end, printing progress and a summary, and exits 0", async () => {
    env = new Env({ searches: [{ query: "topic:mcp-server" }] });
    seedKnown(5);
    env.github.add({ full_name: "brand/new", topics: ["mcp-server"] });
    const run = await within(spawnRefresh(env).done(), 30_000, "the refresh");
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/refresh · discover +1\/1 searches · budget left: .*search \d+\/30/);
    expect(run.stdout).toMatch(/refresh · fetch +6\/6 repositories · budget left: .*graphql \d+\/5000/);
    expect(run.stdout).toMatch(/refresh published \S+: 6 plugins/);
    expect(run.stdout).toContain("  added 1: brand/new");
    expect(run.stdout).toContain("  changed 0, unchanged 5");
    expect(run.stdout).toMatch(
      /API calls: 2 \(search 1, code search 0, graphql 1 \(1 points\), rest 0, rest 304 0 \(free\)\)/,
    );
    expect(run.stdout).toMatch(/time: discover [\d.]+s, fetch [\d.]+s, validate [\d.]+s, publish [\d.]+s/);
  });
});

describe("the token by hand", () => {
  test("an upstream that echoes it in its errors gets it into none of the job's output", async () => {
    env = new Env();
    seedKnown(3);
    const token = "ghp_echoedIntoTheConsole";
    const platform = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: (request) =>
        Response.json({ message: `Bad credentials: ${request.headers.get("authorization")}` }, { status: 401 }),
    });
    env.onStop(() => platform.stop(true));
    const run = await within(
      spawnRefresh(env, { GITHUB_API_URL: `http://127.0.0.1:${platform.port}`, GITHUB_TOKEN: token }).done(),
      20_000,
      "the refresh",
    );
    expect(run.code).not.toBe(0);
    const output = `${run.stdout}${run.stderr}`;
    expect(output).toContain("[redacted]");
    expect(output).not.toContain("echoedIntoTheConsole");
  });
});

/**
 * The deployment of deploy/nginx/: Debian's nginx with proxy_cache in front of two instances, as
 * README.md ("A caching proxy in front") describes it, under a realistic mixed load from many
 * clients (all on the loopback; nginx takes the test's X-Forwarded-For as the client, as it would
 * a load balancer's). What reaches the origins is read from their request logs. nginx runs on a
 * clock of the test's (libfaketime): a cached answer's lifetime passes when the test moves it on.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { PluginRecord } from "../../src/catalog/model/types";
import { publishSnapshot } from "../../src/catalog/snapshot/publish";
import { accepting, eventually, plugin, snapshotInput, tempDir } from "../helpers";
import { ensureStopped, ROOT, type Service, startService } from "../reliability/support/process";
import { freePort, RedisServer } from "./redis-server";

/** The shared caches' lifetime the instances state: s-maxage and stale-while-revalidate. */
const MAX_AGE_S = 60;
const STALE_S = 30;

const PLUGINS = 12;
const records = (description: string): PluginRecord[] =>
  Array.from({ length: PLUGINS }, (_, i) =>
    plugin(`acme/p${i}`, { stars: 100 - i, description: `${description} ${i}`, categories: [i % 2 ? "mcp" : "other"] }),
  );

let dir: string;
let cleanup: () => void;
let nginx: Bun.Subprocess | undefined;
let proxy: string;
let redis: RedisServer;
const services: Service[] = [];
const databases: string[] = [];

/** The template with the test's values, inside the least nginx.conf that runs it as this user. */
function nginxConf(port: number): string {
  const template = readFileSync(join(ROOT, "deploy", "nginx", "catalog.conf.template"), "utf8");
  const values: Record<string, string> = {
    CATALOG_UPSTREAMS: services.map((s) => `server ${new URL(s.url).host};`).join(" "),
    CATALOG_CACHE_PATH: join(dir, "cache"),
    CATALOG_LISTEN: `127.0.0.1:${port}`,
    CATALOG_REAL_IP: "set_real_ip_from 127.0.0.1; real_ip_header X-Forwarded-For;",
  };
  const site = template.replace(/\$\{(CATALOG_[A-Z_]+)\}/g, (_, name: string) => values[name]!);
  writeFileSync(join(dir, "catalog.conf"), site);
  const temp = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((t) => `${t}_temp_path ${dir}/${t};`);
  // The workers keep the clock's settings: nginx gives them only the variables named with `env`.
  const clock = ["LD_PRELOAD", ...Object.keys(nginxClockEnv())].map((name) => `env ${name};`).join(" ");
  return `daemon off; pid ${dir}/nginx.pid; error_log ${dir}/nginx-error.log; events {} ${clock}
http { access_log off; ${temp.join(" ")} include ${dir}/catalog.conf; }`;
}

/** libfaketime, which Debian's faketime package installs (scripts/system-packages.sh). */
function libfaketime(): string {
  const found = readdirSync("/usr/lib")
    .map((arch) => join("/usr/lib", arch, "faketime", "libfaketime.so.1"))
    .find((path) => existsSync(path));
  if (!found) throw new Error("libfaketime is missing: apt-get install faketime (scripts/system-packages.sh)");
  return found;
}

/** How far nginx's clock is ahead of the real one, in seconds. */
let nginxAhead = 0;

/** Moves nginx's clock on by `seconds`: libfaketime reads the file again on each look at the time. */
function moveNginxClock(seconds: number): void {
  nginxAhead += seconds;
  const clock = join(dir, "nginx-clock");
  writeFileSync(`${clock}.next`, `+${nginxAhead}`);
  renameSync(`${clock}.next`, clock);
}

/** The origins' request lines but /healthz's: the marks' and the proxy's readiness probe's, no test's. */
const requestLines = () => services.map((s) => s.events.filter((e) => e.event === "request" && e.route !== "/healthz"));

/**
 * Each origin's request lines, all of those answered so far: a request to each origin itself, a
 * mark, is logged after every line of a request answered before it, and its line has come.
 */
async function originLines(): Promise<Array<Array<Record<string, unknown>>>> {
  await Promise.all(
    services.map(async (s) => {
      const marks = () => s.events.filter((e) => e.event === "request" && e.route === "/healthz").length;
      const before = marks();
      await fetch(`${s.url}/healthz`);
      await eventually(() => marks() > before, 5000, `the line of the mark sent to ${s.url}`);
    }),
  );
  return requestLines();
}

/** A mark of what the origins logged so far; `since` gives the request lines logged after it, as route and status. */
async function mark(): Promise<{ since: () => Promise<Array<[unknown, unknown]>> }> {
  const before = (await originLines()).map((lines) => lines.length);
  return {
    since: async () =>
      (await originLines())
        .flatMap((lines, i) => lines.slice(before[i]))
        .map((e): [unknown, unknown] => [e.route, e.status])
        .sort(),
  };
}

/** libfaketime's settings for nginx: its wall clock is the real one plus the offset in the file, read on each look. */
function nginxClockEnv(): Record<string, string> {
  return {
    FAKETIME_TIMESTAMP_FILE: join(dir, "nginx-clock"),
    FAKETIME_NO_CACHE: "1",
    // Only the wall clock the cache dates its answers by: nginx's timers keep the real monotonic one.
    FAKETIME_DONT_FAKE_MONOTONIC: "1",
  };
}

/** A client of the proxy: a loopback request naming its client address. */
function get(path: string, client: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${proxy}${path}`, { headers: { "X-Forwarded-For": client, "Accept-Encoding": "gzip", ...headers } });
}

beforeAll(async () => {
  ({ dir, cleanup } = tempDir());
  // A master run as root has its workers run as another user: they must reach the cache nginx makes here.
  chmodSync(dir, 0o755);
  // Several instances share their limits through Redis, as README.md's deployment has them.
  redis = await new RedisServer().start();
  for (const name of ["a", "b"]) {
    const path = join(dir, `${name}.sqlite`);
    publishSnapshot(path, snapshotInput(records("first")));
    databases.push(path);
    services.push(
      await startService({
        DATABASE_PATH: path,
        REDIS_URL: redis.url,
        TRUST_PROXY: "1",
        SHARED_CACHE_MAX_AGE_S: String(MAX_AGE_S),
        SHARED_CACHE_STALE_S: String(STALE_S),
      }),
    );
  }
  const port = freePort();
  const conf = join(dir, "nginx.conf");
  writeFileSync(conf, nginxConf(port));
  moveNginxClock(0);
  nginx = Bun.spawn(["nginx", "-p", dir, "-c", conf, "-e", `${dir}/nginx-error.log`], {
    stderr: "inherit",
    env: { ...process.env, LD_PRELOAD: libfaketime(), ...nginxClockEnv() },
  });
  proxy = `http://127.0.0.1:${port}`;
  await accepting(proxy);
}, 30_000);

afterAll(async () => {
  nginx?.kill();
  await nginx?.exited;
  for (const s of services) await ensureStopped(s);
  await redis?.stop();
  cleanup();
});

/** The mixed load's addresses: lists, searches, pages, plugins, feeds, badges and the sync documents. */
const LOAD: string[] = [
  "/api/v1/plugins",
  "/api/v1/plugins?sort=stars",
  "/api/v1/plugins?page=2&pageSize=5",
  "/api/v1/plugins?category=mcp",
  ...["first", "acme", "p1", "agent", "memory"].map((q) => `/api/v1/plugins?q=${q}`),
  "/api/v1/categories",
  "/api/v1/suggest?q=ac",
  "/api/v1/suggest?q=acme/p",
  "/browse",
  "/browse?q=first",
  "/browse?sort=stars&page=2",
  "/categories/mcp",
  ...Array.from({ length: 6 }, (_, i) => `/plugin/acme/p${i}`),
  ...Array.from({ length: 8 }, (_, i) => `/api/v1/plugins/acme/p${i}`),
  "/plugins/feed.xml",
  "/plugins/feed.atom",
  "/plugins/feed.json",
  "/plugins/feed.xml?category=mcp",
  ...Array.from({ length: 8 }, (_, i) => `/badge/acme/p${i}.svg`),
  "/badge/acme/p0.json?show=stars",
  "/market/manifest.json",
  "/market/v1/plugins",
  "/market/v1/catalog.json",
  "/",
];

/** A small seeded generator, so the load is the same on every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe("two instances behind nginx proxy_cache (deploy/nginx)", () => {
  test("a realistic mixed load: the origins serve at most 5% of it", async () => {
    const next = random(36);
    // Popular addresses more often (about Zipf's law), from 40 clients, 8 at a time.
    const pick = () => LOAD[Math.floor(LOAD.length * next() ** 2)]!;
    const total = 2400;
    const origin = await mark();
    const statuses = new Map<number, number>();
    let sent = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (sent < total) {
          const n = sent++;
          const response = await get(pick(), `10.0.${n % 40}.1`);
          await response.arrayBuffer();
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const reached = (await origin.since()).length;
    console.log(
      `mixed load: ${total} requests in ${seconds.toFixed(1)} s, ${reached} reached the origins ` +
        `(${((100 * reached) / total).toFixed(1)}%); statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
    expect(reached).toBeLessThanOrEqual(total * 0.05);
    expect(reached).toBeGreaterThan(0);
    expect(statuses.get(200)).toBeGreaterThan(total * 0.95);
  }, 60_000);

  test("a 429 and /metrics are never stored: each reaches an origin", async () => {
    const client = "10.9.9.9";
    expect((await get("/api/v1/plugins?q=acme&sort=forks", client)).status).toBe(200);
    const origin = await mark();
    const refused = await get("/api/v1/plugins?q=acme&sort=name", client);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).not.toBeNull();
    expect((await get("/api/v1/plugins?q=acme&sort=name", client)).status).toBe(429);
    // Another client gets the answer, not the first one's refusal.
    const other = await get("/api/v1/plugins?q=acme&sort=name", "10.9.9.10");
    expect(other.status).toBe(200);
    expect(other.headers.get("x-cache-status")).toBe("MISS");
    for (let i = 0; i < 2; i++) expect((await get("/metrics", client)).status).toBe(200);
    expect(await origin.since()).toEqual([
      ["/api/v1/plugins", 200],
      ["/api/v1/plugins", 429],
      ["/api/v1/plugins", 429],
      ["/metrics", 200],
      ["/metrics", 200],
    ]);
  });

  test("one entry per form: the clients' spellings of Accept-Encoding share it, and a plain client gets the plain body", async () => {
    const path = "/api/v1/plugins?sort=name&pageSize=10";
    const origin = await mark();
    const forms: Array<[string, string | null, string | null]> = [];
    const accepts = ["gzip", "gzip, deflate, br", "br;q=1.0, gzip;q=0.8", "identity", "gzip;q=0, identity", ""];
    for (const [i, accept] of accepts.entries()) {
      const response = await fetch(`${proxy}${path}`, {
        headers: { "X-Forwarded-For": `10.6.0.${i}`, "Accept-Encoding": accept },
        decompress: false,
      });
      await response.arrayBuffer();
      expect(response.status).toBe(200);
      forms.push([accept, response.headers.get("content-encoding"), response.headers.get("x-cache-status")]);
    }
    expect(forms).toEqual([
      ["gzip", "gzip", "MISS"],
      ["gzip, deflate, br", "gzip", "HIT"],
      ["br;q=1.0, gzip;q=0.8", "gzip", "HIT"],
      ["identity", null, "MISS"],
      ["gzip;q=0, identity", null, "HIT"],
      ["", null, "HIT"],
    ]);
    expect(await origin.since()).toEqual([
      ["/api/v1/plugins", 200],
      ["/api/v1/plugins", 200],
    ]);
  });

  test("revalidation by ETag: the cache answers a current copy with 304, and renews an expired answer with the origin's 304", async () => {
    const path = "/api/v1/plugins?sort=forks&pageSize=3";
    const first = await get(path, "10.8.0.1");
    expect(first.status).toBe(200);
    const etag = first.headers.get("etag")!;
    const origin = await mark();
    const current = await get(path, "10.8.0.2", { "If-None-Match": etag });
    expect(current.status).toBe(304);
    expect(current.headers.get("etag")).toBe(etag);
    expect(await origin.since()).toEqual([]);
    // Past s-maxage and stale-while-revalidate the cache asks the origins with If-None-Match.
    moveNginxClock(MAX_AGE_S + STALE_S + 1);
    const renewed = await get(path, "10.8.0.3");
    expect(renewed.status).toBe(200);
    expect(renewed.headers.get("x-cache-status")).toBe("REVALIDATED");
    expect(renewed.headers.get("etag")).toBe(etag);
    expect(await origin.since()).toEqual([["/api/v1/plugins", 304]]);
  }, 30_000);

  test("a new snapshot is seen through the cache within s-maxage + stale-while-revalidate of its swap", async () => {
    // A client of its own for every request: none is refused by the origins' rate limits.
    const client = (i: number) => `10.7.${Math.floor(i / 250) % 250}.${1 + (i % 250)}`;
    // Every address of the load is in the cache, from the first snapshot.
    for (const [i, path] of LOAD.entries()) await (await get(path, client(i))).arrayBuffer();
    for (const path of databases) publishSnapshot(path, snapshotInput(records("second"), "2026-08-23T00:00:00.000Z"));
    let i = LOAD.length;
    // The swap is done once both origins serve the new snapshot (each store looks at its file again).
    const swapped = async () => {
      const bodies = services.map(async (s) => {
        const response = await fetch(`${s.url}/api/v1/plugins/acme/p1`, {
          headers: { "X-Forwarded-For": client(i++) },
        });
        return response.text();
      });
      return (await Promise.all(bodies)).every((body) => body.includes("second 1"));
    };
    await eventually(swapped, 10_000, "both origins serving the new snapshot");
    // The bound passes on nginx's clock: every address of the load then answers what the origins answer now.
    moveNginxClock(MAX_AGE_S + STALE_S + 1);
    for (const path of LOAD) {
      const through = await get(path, client(i++));
      const origin = await fetch(`${services[0]!.url}${path}`, { headers: { "X-Forwarded-For": client(i++) } });
      expect(through.status, path).toBe(200);
      expect(await through.text(), path).toBe(await origin.text());
    }
  }, 40_000);
});

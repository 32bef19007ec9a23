/** Three instances behind Debian's nginx, as an operator runs them: TRUST_PROXY=true, one Redis. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { accepting, eventually } from "../helpers";
import { Env } from "../refresh/support";
import { ensureStopped, type Service, startService } from "../reliability/support/process";
import { freePort, RedisServer } from "./redis-server";

let env: Env;
let redis: RedisServer;
let nginx: Bun.Subprocess | undefined;
let balancer: string;
const services: Service[] = [];

beforeAll(async () => {
  env = new Env();
  env.github.add({ full_name: "acme/one", stars: 3 });
  env.publishFake();
  redis = await new RedisServer().start();
  for (const name of ["a", "b", "c"]) {
    const path = join(env.dir, `${name}.sqlite`);
    writeFileSync(path, env.bytes());
    services.push(await startService({ DATABASE_PATH: path, REDIS_URL: redis.url, TRUST_PROXY: "true" }));
  }
  const port = freePort();
  const upstreams = services.map((s) => `server ${new URL(s.url).host};`).join(" ");
  const temp = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((t) => `${t}_temp_path ${env.dir}/${t};`);
  const conf = join(env.dir, "nginx.conf");
  writeFileSync(
    conf,
    `daemon off; pid ${env.dir}/nginx.pid; error_log ${env.dir}/nginx-error.log; events {}
http { access_log off; ${temp.join(" ")}
  upstream catalog { ${upstreams} }
  server { listen 127.0.0.1:${port};
    location / { proxy_pass http://catalog; proxy_set_header X-Forwarded-For $remote_addr; } } }`,
  );
  nginx = Bun.spawn(["nginx", "-p", env.dir, "-c", conf, "-e", `${env.dir}/nginx-error.log`], { stderr: "inherit" });
  balancer = `http://127.0.0.1:${port}`;
  await accepting(balancer);
}, 30_000);

afterAll(async () => {
  nginx?.kill();
  await nginx?.exited;
  for (const s of services) await ensureStopped(s);
  await redis.stop();
  await env.stop();
});

test("behind a round-robin nginx, a client's second request, on another instance, gets 429", async () => {
  // Only the list's lines: the balancer's readiness probe (/healthz) is logged too.
  const requests = () =>
    services.map((s) => s.events.filter((e) => e.event === "request" && e.route === "/api/v1/plugins").length);
  const before = requests();
  const statuses: number[] = [];
  for (let i = 0; i < 3; i++) statuses.push((await fetch(`${balancer}/api/v1/plugins?q=balanced`)).status);
  expect(statuses).toEqual([200, 429, 429]);
  const reached = () => requests().map((n, i) => n - before[i]!);
  await eventually(() => reached().reduce((a, b) => a + b) >= 3, 5000, "a line for each of the three requests");
  // Round robin: each of the three requests reached another instance.
  expect(reached()).toEqual([1, 1, 1]);
});
